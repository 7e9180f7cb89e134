//! The demo's assessments, questions and rubrics, written as data.

use crate::model::question_kind::QuestionKind;

pub struct AssessmentSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// `Science/Physics`: the topic path of every question in it.
    pub topic: &'static str,
    pub questions: &'static [QuestionSpec],
}

pub struct QuestionSpec {
    pub kind: QuestionKind,
    pub description: &'static str,
    pub stem: &'static str,
    /// A passage the stem refers to, shown above it ("" for none).
    pub passage: &'static str,
    /// `(text, correct)` for choice questions.
    pub choices: &'static [(&'static str, bool)],
    pub max_score: i32,
    pub rubric: Option<RubricSpec>,
    /// Essays answered on paper and scanned, rather than typed.
    pub handwritten: bool,
    /// Sentences that typed answers are made of.
    pub answer_sentences: &'static [&'static str],
}

pub struct RubricSpec {
    pub name: &'static str,
    pub instructions: &'static str,
    /// `(name, instructions, max score)`; the maxima add up to the question's.
    pub dimensions: &'static [(&'static str, &'static str, i16)],
    /// Per dimension, in order, what earns each score from 0 up (DimensionLevels,
    /// our extension); a rubric or a dimension may have none.
    pub levels: &'static [&'static [&'static str]],
}

impl RubricSpec {
    pub fn max_score(&self) -> i32 {
        self.dimensions.iter().map(|d| i32::from(d.2)).sum()
    }
}

const fn choice(
    stem: &'static str,
    description: &'static str,
    choices: &'static [(&'static str, bool)],
    max_score: i32,
    kind: QuestionKind,
) -> QuestionSpec {
    QuestionSpec {
        kind,
        description,
        stem,
        passage: "",
        choices,
        max_score,
        rubric: None,
        handwritten: false,
        answer_sentences: &[],
    }
}

pub const NORTHWIND: &[AssessmentSpec] = &[
    AssessmentSpec {
        name: "Physics Fundamentals",
        description: "Forces, motion and energy: end of unit 3.",
        topic: "Science/Physics",
        questions: &[
            choice("Which quantity is measured in newtons?", "Units of force", &[("Force", true), ("Energy", false), ("Power", false), ("Momentum", false)], 1, QuestionKind::MultipleChoice),
            choice("Which of these are vector quantities? Select all that apply.", "Vectors and scalars", &[("Velocity", true), ("Mass", false), ("Acceleration", true), ("Temperature", false), ("Displacement", true)], 2, QuestionKind::MultipleResponse),
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Newton's laws: braking bus",
                stem: "Explain, using Newton's laws of motion, why a standing passenger lurches forward when a bus brakes suddenly.",
                passage: "",
                choices: &[],
                max_score: 6,
                rubric: Some(RubricSpec {
                    name: "Braking bus",
                    instructions: "Reward correct physics first; do not penalise spelling unless it obscures meaning.",
                    dimensions: &[
                        ("Physics concepts", "Inertia and Newton's first law identified; the force acts on the bus, not the passenger.", 3),
                        ("Quality of explanation", "A logical chain from the braking force to the passenger's motion.", 2),
                        ("Terminology", "Uses inertia, force, acceleration or deceleration correctly.", 1),
                    ],
                    levels: &[
                        &["No relevant physics.", "Inertia or the first law named.", "Inertia applied to the passenger.", "The first law applied, the force on the bus and not the passenger."],
                        &["No explanation.", "Some steps, gaps in the chain.", "A logical chain from the braking force to the passenger."],
                        &["Terms missing or misused.", "Inertia, force or deceleration used correctly."],
                    ],
                }),
                handwritten: false,
                answer_sentences: &[
                    "The passenger keeps moving forward because of inertia.",
                    "Newton's first law says an object stays in motion unless a resultant force acts on it.",
                    "The brakes put a force on the bus, so the bus decelerates.",
                    "No force acts on the passenger's upper body at first, so it continues at the old speed.",
                    "Friction from the floor slows the feet, but the body carries on.",
                    "It feels like being pushed forward, but really nothing pushes you.",
                    "The passenger should hold the rail so that the rail provides the force to slow them down.",
                    "This is also why seatbelts are needed in cars.",
                ],
            },
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Free-body diagram: book on a table",
                stem: "Draw a labelled free-body diagram of a book resting on a table, and explain why the book does not move.",
                passage: "",
                choices: &[],
                max_score: 4,
                rubric: Some(RubricSpec {
                    name: "Free-body diagram",
                    instructions: "The answer is handwritten and scanned. Zoom in on the labels before scoring.",
                    dimensions: &[
                        ("Diagram", "Weight down and normal reaction up, equal in length, both labelled.", 2),
                        ("Explanation", "The forces are balanced, so the resultant force is zero.", 2),
                    ],
                    levels: &[],
                }),
                handwritten: true,
                answer_sentences: &[],
            },
        ],
    },
    AssessmentSpec {
        name: "Biology Midterm",
        description: "Cells, respiration and photosynthesis.",
        topic: "Science/Biology",
        questions: &[
            choice("Where in the cell does aerobic respiration mainly take place?", "Site of respiration", &[("Mitochondria", true), ("Nucleus", false), ("Ribosome", false), ("Cell wall", false)], 1, QuestionKind::MultipleChoice),
            choice("What carries oxygen in red blood cells?", "Oxygen transport", &[("Haemoglobin", true), ("Insulin", false), ("Keratin", false), ("Chlorophyll", false)], 1, QuestionKind::MultipleChoice),
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Photosynthesis",
                stem: "Describe the process of photosynthesis, including its inputs, its outputs and where in the plant it happens.",
                passage: "",
                choices: &[],
                max_score: 8,
                rubric: Some(RubricSpec {
                    name: "Photosynthesis",
                    instructions: "Credit any correct word equation or symbol equation.",
                    dimensions: &[
                        ("Inputs and outputs", "Carbon dioxide and water in; glucose and oxygen out.", 3),
                        ("Light and chlorophyll", "Light energy absorbed by chlorophyll in chloroplasts.", 3),
                        ("Clarity", "Ideas in a sensible order, in complete sentences.", 2),
                    ],
                    levels: &[
                        &["Neither named.", "One input or output named.", "Most inputs and outputs named.", "Both inputs and both outputs, correctly."],
                        &["Not mentioned.", "Light or chlorophyll mentioned.", "Light absorbed by chlorophyll.", "Light energy absorbed by chlorophyll, in the chloroplasts."],
                        &["Hard to follow.", "Mostly in order, some fragments.", "A clear order, complete sentences."],
                    ],
                }),
                handwritten: false,
                answer_sentences: &[
                    "Photosynthesis happens in the chloroplasts of leaf cells.",
                    "Plants take in carbon dioxide through the stomata and water through the roots.",
                    "Chlorophyll absorbs light energy from the sun.",
                    "The light energy is used to turn carbon dioxide and water into glucose.",
                    "Oxygen is given off as a waste product.",
                    "The word equation is carbon dioxide plus water gives glucose plus oxygen.",
                    "Glucose is stored as starch or used for respiration.",
                    "Plants grow faster when there is more light, up to a point.",
                ],
            },
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Reflection on an experiment (no rubric)",
                stem: "Reflect on one experiment you carried out this term: what would you do differently next time?",
                passage: "",
                choices: &[],
                max_score: 5,
                rubric: None,
                handwritten: false,
                answer_sentences: &[
                    "We measured how temperature affects enzyme activity.",
                    "Next time I would repeat each reading three times.",
                    "Our water bath was not very stable, so the results varied.",
                    "I would also use a wider range of temperatures.",
                    "Recording the times in a table as we went would have helped.",
                ],
            },
        ],
    },
    AssessmentSpec {
        name: "Writing Skills Assessment",
        description: "Functional writing: letters and summaries.",
        topic: "Language/Writing",
        questions: &[
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Letter to the council",
                stem: "Write a letter to your local council proposing one change that would improve your neighbourhood. Give reasons.",
                passage: "",
                choices: &[],
                max_score: 10,
                rubric: Some(RubricSpec {
                    name: "Persuasive letter",
                    instructions: "Score each dimension independently. Use the full range.",
                    dimensions: &[
                        ("Content and ideas", "A clear proposal supported by relevant reasons.", 3),
                        ("Organisation", "Letter conventions; paragraphs that build the argument.", 3),
                        ("Language and style", "Formal register, varied vocabulary and sentences.", 2),
                        ("Spelling and punctuation", "Accurate, with at most minor slips.", 2),
                    ],
                    levels: &[
                        &["No proposal.", "A proposal, no reasons.", "A proposal with one or two reasons.", "A clear proposal with three or more relevant reasons."],
                        &["No letter form.", "Some letter conventions.", "Conventions and paragraphs.", "Conventions, and paragraphs that build the argument."],
                        &["Informal throughout.", "Mostly formal, little variety.", "Formal, varied vocabulary and sentences."],
                        &["Errors get in the way.", "Several slips.", "Accurate, at most minor slips."],
                    ],
                }),
                handwritten: false,
                answer_sentences: &[
                    "Dear Councillor, I am writing to propose a new cycle lane on Station Road.",
                    "Many children cycle to school along this road and the traffic is heavy.",
                    "A protected lane would make their journey much safer.",
                    "It would also encourage more adults to leave their cars at home.",
                    "This would reduce pollution and congestion in the town centre.",
                    "I believe the cost would be repaid by the health benefits.",
                    "Thank you for considering my proposal. Yours sincerely,",
                    "Our park also needs more benches and better lighting in the evening.",
                ],
            },
            QuestionSpec {
                kind: QuestionKind::Essay,
                description: "Handwritten summary",
                stem: "By hand: summarise the passage above in no more than 60 words.",
                passage: "Hedgehogs are in decline across Britain. Their numbers in the countryside have fallen by half since 2000, as hedgerows are removed and fields are sprayed. In towns the decline has slowed: gardens with gaps in their fences let hedgehogs roam the mile or so they need each night. Volunteers now count them every spring, and councils are asked to leave wild corners in parks.",
                choices: &[],
                max_score: 5,
                rubric: Some(RubricSpec {
                    name: "Summary",
                    instructions: "The response is a scanned page. Count words approximately.",
                    dimensions: &[
                        ("Accuracy", "The main points of the passage, nothing invented.", 3),
                        ("Concision", "Within the word limit, no repetition.", 2),
                    ],
                    levels: &[
                        &["No main point.", "One main point.", "Most main points.", "Every main point, nothing invented."],
                        &["Well over 60 words.", "Near the limit, some repetition.", "Within 60 words, no repetition."],
                    ],
                }),
                handwritten: true,
                answer_sentences: &[],
            },
            choice("Which of these sentences are punctuated correctly? Select all that apply.", "Punctuation", &[("It's raining again.", true), ("The dog wagged it's tail.", false), ("Bring pens, paper and a ruler.", true), ("Where are you going.", false)], 2, QuestionKind::MultipleResponse),
        ],
    },
];

pub const HARBOUR: &[AssessmentSpec] = &[AssessmentSpec {
    name: "Maritime Safety Certificate",
    description: "Safety on deck.",
    topic: "Safety",
    questions: &[
        choice(
            "Which signal means 'man overboard'?",
            "Signals",
            &[
                ("Flag O (Oscar)", true),
                ("Flag A (Alpha)", false),
                ("Flag B (Bravo)", false),
            ],
            1,
            QuestionKind::MultipleChoice,
        ),
        QuestionSpec {
            kind: QuestionKind::Essay,
            description: "Fire on deck",
            stem: "Describe what you would do on discovering a fire on deck.",
            passage: "",
            choices: &[],
            max_score: 6,
            rubric: Some(RubricSpec {
                name: "Fire procedure",
                instructions: "Follow the company's fire plan.",
                dimensions: &[
                    ("Hazards identified", "Fuel, oxygen, spread.", 3),
                    (
                        "Procedure",
                        "Raise the alarm first, then fight the fire if safe.",
                        3,
                    ),
                ],
                levels: &[],
            }),
            handwritten: false,
            answer_sentences: &[
                "First I would raise the alarm and tell the bridge.",
                "Then I would use the nearest extinguisher if it is safe.",
                "I would close doors to stop the fire spreading.",
                "I would never fight a fire alone if it is large.",
            ],
        },
    ],
}];

pub const FIRST_NAMES: &[&str] = &[
    "Amira", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Isla", "Jonas", "Kemi",
    "Liam", "Maya", "Noah", "Olga", "Pedro", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera",
    "Wen", "Yusuf",
];

pub const LAST_NAMES: &[&str] = &[
    "Haddad",
    "Okafor",
    "Schmidt",
    "Ivanova",
    "Rossi",
    "Nakamura",
    "O'Brien",
    "Lindqvist",
    "Mensah",
    "Kowalski",
    "Fernandes",
    "Murphy",
    "Dubois",
    "Khan",
    "Novak",
    "Silva",
];

/// The question's markup document: an XHTML fragment.
pub(super) fn question_markup(spec: &QuestionSpec) -> String {
    let escape = |text: &str| quick_xml::escape::escape(text).into_owned();
    let mut markup =
        String::from("<div class=\"question\" xmlns=\"http://www.w3.org/1999/xhtml\">\n");
    // The passage first: the stem refers to it as "above".
    if !spec.passage.is_empty() {
        markup.push_str(&format!(
            "  <div class=\"passage\"><p>{}</p></div>\n",
            escape(spec.passage)
        ));
    }
    markup.push_str(&format!("  <p class=\"stem\">{}</p>\n", escape(spec.stem)));
    if !spec.choices.is_empty() {
        markup.push_str("  <ol class=\"choices\">\n");
        for (text, _) in spec.choices {
            markup.push_str(&format!("    <li>{}</li>\n", escape(text)));
        }
        markup.push_str("  </ol>\n");
    }
    if spec.kind == QuestionKind::Essay {
        let hint = if spec.handwritten {
            "Answer on the answer sheet provided."
        } else {
            "Type your answer in the box."
        };
        markup.push_str(&format!("  <p class=\"response-hint\">{hint}</p>\n"));
    }
    markup.push_str("</div>\n");
    markup
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stem that speaks of a passage has one, shown before it (issue 33, defect 15:
    /// "summarise the passage above" had none).
    #[test]
    fn a_stem_that_refers_to_a_passage_has_one_above_it() {
        for assessment in NORTHWIND.iter().chain(HARBOUR) {
            for question in assessment.questions {
                if question.stem.contains("passage") {
                    assert!(!question.passage.is_empty(), "{}", question.description);
                    let markup = question_markup(question);
                    let passage = markup
                        .find("class=\"passage\"")
                        .expect("the passage is shown");
                    assert!(
                        passage < markup.find("class=\"stem\"").unwrap(),
                        "above the stem"
                    );
                }
            }
        }
    }

    #[test]
    fn every_rubric_maximum_equals_its_question_maximum() {
        for assessment in NORTHWIND.iter().chain(HARBOUR) {
            for question in assessment.questions {
                if let Some(rubric) = &question.rubric {
                    assert_eq!(
                        rubric.max_score(),
                        question.max_score,
                        "{}",
                        question.description
                    );
                    assert!(
                        (2..=4).contains(&rubric.dimensions.len()),
                        "{}",
                        question.description
                    );
                }
            }
        }
    }

    #[test]
    fn levels_describe_every_score_of_their_dimension() {
        for question in NORTHWIND.iter().chain(HARBOUR).flat_map(|a| a.questions) {
            let Some(rubric) = &question.rubric else {
                continue;
            };
            if rubric.levels.is_empty() {
                continue;
            }
            assert_eq!(
                rubric.levels.len(),
                rubric.dimensions.len(),
                "{}",
                rubric.name
            );
            for (levels, (name, _, max)) in rubric.levels.iter().zip(rubric.dimensions) {
                assert_eq!(levels.len(), *max as usize + 1, "{}: {name}", rubric.name);
            }
        }
    }

    #[test]
    fn typed_essays_have_sentences_to_answer_with() {
        for question in NORTHWIND.iter().chain(HARBOUR).flat_map(|a| a.questions) {
            if question.kind == QuestionKind::Essay && !question.handwritten {
                assert!(
                    question.answer_sentences.len() >= 4,
                    "{}",
                    question.description
                );
            }
        }
    }
}
