"""Writes the two other formats `scripts/bench --import` times, N questions each,
with third-party tools: a Canvas QTI 1.2 export (qti-package-maker's
canvas_qti_v1_2 engine: single and multiple choice, fill in the blank, numeric, a
quarter each) and a Moodle XML bank (moodle_questions: a single choice, a choice
with partial credit and a short answer, a third each, each question with a chart
of its own embedded as Moodle embeds images, base64 in the question text); and
a Moodle cloze bank (moocloze: each question two dropdowns, one shuffled, a short
answer and a number with a tolerance: picked and typed blanks).

usage: python make_large_banks.py OUT_DIR [N]
writes OUT_DIR/canvas-qti12-N.zip, OUT_DIR/moodle-bank-N.xml and
OUT_DIR/moodle-cloze-N.xml
"""

import base64
import os
import sys
from xml.etree import ElementTree

import moocloze
from moodle_questions import MultipleChoiceQuestion, Quiz, ShortAnswerQuestion
from qti_package_maker import package_interface

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_large_package import png  # noqa: E402


def canvas(out, count):
    bank = package_interface.QTIPackageInterface("bench-canvas-%d" % count, allow_mixed=True)
    for n in range(count):
        choices = ["Answer %d" % c for c in range(1, 6)]
        kind = n % 4
        if kind == 0:
            bank.add_item("MC", ("Item %d: which answer is right?" % n, choices, choices[n % 5]))
        elif kind == 1:
            bank.add_item("MA", ("Item %d: which answers are right?" % n, choices, choices[1:3]))
        elif kind == 2:
            bank.add_item("FIB", ("Item %d: the answer is ____." % n, ["eight", "8"]))
        else:
            bank.add_item("NUM", ("Item %d: what is %d times 3?" % (n, n), n * 3, 0.5, True))
    bank.save_package("canvas_qti_v1_2", os.path.join(out, "canvas-qti12-%d.zip" % count))


def moodle(out, count):
    quiz = Quiz()
    for n in range(count):
        image = '<img src="@@PLUGINFILE@@/chart-%04d.png" alt="chart %d">' % (n, n)
        kind = n % 3
        if kind == 0:
            question = MultipleChoiceQuestion(name="Item %d" % n, default_mark=1,
                                              question_text="<p>Item %d: which bar is tallest? %s</p>" % (n, image))
            for c in range(1, 6):
                question.add_answer(100 if c == 1 + n % 5 else 0, "Bar %d" % c, "")
        elif kind == 1:
            question = MultipleChoiceQuestion(name="Item %d" % n, default_mark=2,
                                              question_text="<p>Item %d: name a tall bar. %s</p>" % (n, image))
            for c, fraction in enumerate([50, 50, 0, 0], start=1):
                question.add_answer(fraction, "Bar %d" % c, "")
        else:
            question = ShortAnswerQuestion(name="Item %d" % n, default_mark=1,
                                           question_text="<p>Item %d: how many bars? %s</p>" % (n, image))
            question.add_answer(100, "8", "")
            question.add_answer(100, "eight", "")
        quiz.add_question(question)
    path = os.path.join(out, "moodle-bank-%d.xml" % count)
    quiz.save(path)
    # moodle_questions writes no files: each question text gets its chart, as
    # Moodle's export writes it.
    tree = ElementTree.parse(path)
    for n, text in enumerate(tree.getroot().iter("questiontext")):
        image = ElementTree.SubElement(text, "file", {"name": "chart-%04d.png" % n, "path": "/",
                                                       "encoding": "base64"})
        image.text = base64.b64encode(png(240, 150, n)).decode()
    tree.write(path, encoding="utf-8", xml_declaration=True)


def cloze(out, count):
    questions = []
    for n in range(count):
        text = (f"<p>Item {n}: the sky is {moocloze.Multichoice('blue', ['green', 'red'])}, "
                f"grass is {moocloze.Multichoice('green', ['blue', 'grey', 'pink'], shuffle=True)}, "
                f"snow is {moocloze.ShortAnswer('white')} and {n} + 1 is "
                f"{moocloze.Numerical(n + 1, 0.5, weight=2)}.</p>")
        questions.append(moocloze.Question(name="Item %d" % n, contents=text))
    moocloze.Quiz(questions).to_xml_file(output_path=os.path.join(out, "moodle-cloze-%d.xml" % count))


def main():
    out = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    os.makedirs(out, exist_ok=True)
    canvas(out, count)
    moodle(out, count)
    cloze(out, count)


if __name__ == "__main__":
    main()
