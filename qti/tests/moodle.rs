//! Moodle XML banks read on their own (the HTTP tests take them through the whole
//! path): the size bound, questions of one name kept apart, partial credit as
//! values, units and wildcards.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_qti::{read_package, Blank, ChoiceScoring, QtiVersion, Response};

fn bank(questions: &str) -> String {
    format!(r#"<?xml version="1.0" encoding="UTF-8"?><quiz>{questions}</quiz>"#)
}

const TWO_OF_A_NAME: &str = r#"<question type="truefalse"><name><text>Check</text></name><questiontext format="html"><text>The Sun is a star.</text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question><question type="truefalse"><name><text>Check</text></name><questiontext format="html"><text>The Moon is a star.</text></questiontext><answer fraction="0"><text>true</text></answer><answer fraction="100"><text>false</text></answer></question>"#;

#[test]
fn a_bank_over_the_bound_is_refused_before_it_is_parsed() {
    let mut huge = bank("").into_bytes();
    huge.extend(std::iter::repeat_n(b' ', 33 * 1024 * 1024));
    let error = read_package(&huge).unwrap_err();
    assert!(
        error.to_string().contains("an XML file of at most"),
        "{error}"
    );
}

#[test]
fn questions_of_one_name_are_two_questions() {
    let read = read_package(bank(TWO_OF_A_NAME).as_bytes()).unwrap();
    assert_eq!(read.version, QtiVersion::Moodle);
    let identifiers: Vec<&str> = read.items.iter().map(|i| i.identifier.as_str()).collect();
    assert_eq!(identifiers, ["Check", "Check (2)"]);
    let Response::Choice { choices, .. } = &read.items[1].response else {
        panic!("a choice");
    };
    let correct: Vec<&str> = choices
        .iter()
        .filter(|c| c.correct)
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(correct, ["False"], "Moodle's false, as people read it");
}

#[test]
fn partial_credit_is_each_answers_share_of_the_grade() {
    let question = r#"<question type="multichoice"><name><text>Primes</text></name><questiontext><text>Which are prime?</text></questiontext><defaultgrade>3</defaultgrade><single>false</single><answer fraction="33.33333"><text>2</text></answer><answer fraction="33.33333"><text>3</text></answer><answer fraction="33.33334"><text>5</text></answer><answer fraction="-100"><text>4</text></answer></question>"#;
    let read = read_package(bank(question).as_bytes()).unwrap();
    let Response::Choice {
        multiple: true,
        choices,
        scoring: ChoiceScoring::MapResponse { .. },
        ..
    } = &read.items[0].response
    else {
        panic!("mapped: {:?}", read.items[0].response);
    };
    let values: Vec<i64> = choices
        .iter()
        .map(|c| (c.mapped_value.unwrap() * 1000.0).round() as i64)
        .collect();
    assert_eq!(values, [1000, 1000, 1000, -3000]);
    assert_eq!(read.items[0].max_score, 3);
}

#[test]
fn wildcards_and_formulas_are_skipped_naming_why() {
    let wildcard = r#"<question type="shortanswer"><name><text>City</text></name><questiontext><text>A city?</text></questiontext><answer fraction="100"><text>Par*s</text></answer></question>"#;
    let escaped = r#"<question type="shortanswer"><name><text>Star</text></name><questiontext><text>The symbol?</text></questiontext><answer fraction="100"><text>\*</text></answer></question>"#;
    let formula = r#"<question type="calculated"><name><text>Calc</text></name><questiontext><text>{a}+{b}?</text></questiontext></question>"#;
    let read = read_package(bank(&format!("{wildcard}{escaped}{formula}")).as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "the escaped star is a star");
    assert_eq!(read.items[0].identifier, "Star");
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(reasons[0].contains("wildcard"), "{reasons:?}");
    assert!(
        reasons[1].contains("numbers drawn for each student"),
        "{reasons:?}"
    );
}

#[test]
fn a_match_shares_its_grade_among_its_rows_and_a_distractor_is_only_an_option() {
    let question = r#"<question type="match"><name><text>Charges</text></name><questiontext format="html"><text>Match.</text></questiontext><defaultgrade>3</defaultgrade><subquestion format="html"><text><![CDATA[<p>Proton</p>]]></text><answer><text>positive</text></answer></subquestion><subquestion format="html"><text>Electron</text><answer><text>negative</text></answer></subquestion><subquestion format="html"><text></text><answer><text>both</text></answer></subquestion><subquestion format="html"><text>Positron</text><answer><text>positive</text></answer></subquestion></question><question type="match"><name><text>Empty</text></name><questiontext format="html"><text>Match.</text></questiontext><subquestion format="html"><text>Proton</text><answer><text></text></answer></subquestion></question>"#;
    let read = read_package(bank(question).as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let Response::Matching {
        rows,
        options,
        pairs,
        ..
    } = &read.items[0].response
    else {
        panic!("{:?}", read.items[0].response);
    };
    assert_eq!(rows, &["Proton", "Electron", "Positron"]);
    let options: Vec<&str> = options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        options,
        ["positive", "negative", "both"],
        "each answer once"
    );
    let pairs: Vec<(usize, usize)> = pairs.iter().map(|p| (p.row, p.option)).collect();
    assert_eq!(pairs, [(0, 0), (1, 1), (2, 0)]);
    assert!(pairs_worth(&read.items[0].response, 1.0));
    assert_eq!(read.items[0].max_score, 3);
    assert!(read.skipped[0].reason.contains("without an answer"));
}

/// Whether every pair of a matching is worth `value`.
fn pairs_worth(response: &Response, value: f64) -> bool {
    match response {
        Response::Matching { pairs, .. } => pairs
            .iter()
            .all(|p| p.mapped_value.is_some_and(|v| (v - value).abs() < 1e-9)),
        _ => false,
    }
}

#[test]
fn select_missing_words_is_a_gap_match_and_a_gap_naming_no_choice_skips_it() {
    let question = |name: &str, text: &str| {
        format!(
            r#"<question type="gapselect"><name><text>{name}</text></name><questiontext format="html"><text><![CDATA[{text}]]></text></questiontext><defaultgrade>3</defaultgrade><selectoption><text>hydrogen</text><group>1</group></selectoption><selectoption><text>oxygen</text><group>1</group></selectoption><selectoption><text>wet</text><group>2</group></selectoption></question>"#
        )
    };
    let bank = bank(&format!(
        "{}{}",
        question("Water", "<p>Water is [[1]], [[2]] and <b>[[3]]</b>.</p>"),
        question("Bad", "<p>Water is [[9]].</p>")
    ));
    let read = read_package(bank.as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Matching {
        rows,
        options,
        pairs,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert_eq!(rows, &["Gap 1", "Gap 2", "Gap 3"]);
    let options: Vec<&str> = options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(options, ["hydrogen", "oxygen", "wet"]);
    let pairs: Vec<(usize, usize)> = pairs.iter().map(|p| (p.row, p.option)).collect();
    assert_eq!(pairs, [(0, 0), (1, 1), (2, 2)]);
    assert!(pairs_worth(&item.response, 1.0), "a third of 3 each");
    assert!(
        item.markup
            .contains("<b><span class=\"gap\">(3) __________</span></b>"),
        "{}",
        item.markup
    );
    assert!(read.skipped[0].reason.contains("[[9]] names no choice"));
}

#[test]
fn gaps_that_name_no_choice_skip_their_question_and_a_lone_bracket_is_words() {
    let question = |name: &str, text: &str| {
        format!(
            r#"<question type="ddwtos"><name><text>{name}</text></name><questiontext format="html"><text><![CDATA[{text}]]></text></questiontext><dragbox><text>a</text><group>1</group></dragbox><dragbox><text>b</text><group>1</group></dragbox></question>"#
        )
    };
    let bank = bank(&format!(
        "{}{}{}{}",
        question("Huge", "x [[99999999999999999999]] y"),
        question("Zero", "x [[0]] y"),
        question("None", "no gaps at all"),
        question("Open", "[[2]] and [[1 left open"),
    ));
    let read = read_package(bank.as_bytes()).unwrap();
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(
        reasons[0].contains("[[99999999999999999999]] names no choice"),
        "{reasons:?}"
    );
    assert!(reasons[1].contains("[[0]] names no choice"), "{reasons:?}");
    assert!(reasons[2].contains("no gap"), "{reasons:?}");
    assert_eq!(read.items.len(), 1);
    assert!(
        read.items[0].markup.contains("and [[1 left open"),
        "{}",
        read.items[0].markup
    );
}

#[test]
fn a_match_of_thousands_is_skipped_as_it_is_read() {
    let many = |distinct: bool| -> String {
        (0..20_000)
            .map(|i| {
                let answer = if distinct { format!("answer {i}") } else { "same".to_owned() };
                format!(r#"<subquestion format="html"><text>row {i}</text><answer><text>{answer}</text></answer></subquestion>"#)
            })
            .collect()
    };
    let question = |name: &str, subquestions: String| {
        format!(
            r#"<question type="match"><name><text>{name}</text></name><questiontext format="html"><text>Match.</text></questiontext>{subquestions}</question>"#
        )
    };
    let bank = bank(&format!(
        "{}{}",
        question("Answers", many(true)),
        question("Rows", many(false))
    ));
    let read = read_package(bank.as_bytes()).unwrap();
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(reasons[0].contains("more than 26 options"), "{reasons:?}");
    assert!(reasons[1].contains("more than 40 rows"), "{reasons:?}");
}

/// A Moodle cloze as Moodle's own editor writes it: weights, `%n%` partial
/// credit, exact case, a catch-all `*` at 0 %, feedback after
/// `#`, and a grade of its own; each blank worth its weight's share of the grade.
#[test]
fn a_cloze_is_blanks_each_worth_its_weights_share() {
    let cloze = r#"<question type="multianswer"><name><text>Cloze</text></name><defaultgrade>4</defaultgrade><questiontext format="html"><text><![CDATA[<p>{1:SHORTANSWER:=Berlin#Right~%50%Berlín#Close~*#Wrong} is a capital; {1:SAC:=NaCl} is salt; {2:NM:=9.81:0.05~%50%10:0} is g; {a\}b} is words.</p>]]></text></questiontext></question>"#;
    let read = read_package(bank(cloze).as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Blanks { blanks, scoring } = &item.response else {
        panic!("{:?}", item.response);
    };
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(item.max_score, 4, "the question's grade");
    let keys: Vec<Vec<(String, f64, bool)>> = blanks
        .iter()
        .map(|blank| {
            blank
                .typed_keys()
                .iter()
                .map(|k| (k.text.clone(), k.mapped_value.unwrap(), k.case_sensitive))
                .collect()
        })
        .collect();
    // Weights 1, 1, 2 of 4: 1, 1 and 2 marks.
    assert_eq!(
        keys,
        [
            vec![("Berlin".into(), 1.0, false), ("Berlín".into(), 0.5, false)],
            vec![("NaCl".into(), 1.0, true)],
            vec![
                ("9.76 to 9.86".into(), 2.0, false),
                ("10".into(), 1.0, false)
            ],
        ]
    );
    assert!(blanks[2].typed_keys()[0].numeric.is_some());
    assert!(
        item.markup
            .contains("<span class=\"blank\">(1) __________</span> is a capital"),
        "{}",
        item.markup
    );
    // Braces that hold no embedded answer are words, as written.
    assert!(item.markup.contains(r"{a\}b} is words."), "{}", item.markup);
}

#[test]
fn a_cloze_that_cannot_be_marked_is_skipped_naming_why() {
    let cases = [
        (
            r#"{1:MULTIRESPONSE:=red~blue}"#,
            "an embedded MULTIRESPONSE",
        ),
        (r#"{1:MC:=red} and {1:SA:=x}"#, "a list takes 2 or more"),
        (
            r#"{1:MC:red~blue} and {1:SA:=x}"#,
            "no answer worth anything",
        ),
        (r#"{1:SHORTANSWER:=Par*s}"#, "has a wildcard"),
        (r#"{1:SHORTANSWER:=Paris"#, "is not closed"),
        (r#"{1:SA:*}"#, "no answer worth anything"),
        (r#"No blanks {here}."#, "has no embedded answer"),
    ];
    for (text, reason) in cases {
        let question = format!(
            r#"<question type="cloze"><name><text>Q</text></name><questiontext format="html"><text><![CDATA[{text}]]></text></questiontext></question>"#
        );
        let read = read_package(bank(&question).as_bytes()).unwrap();
        assert!(read.items.is_empty(), "{text}");
        assert!(
            read.skipped[0].reason.contains(reason),
            "{text}: {}",
            read.skipped[0].reason
        );
    }
}

/// A hostile cloze of a million braces is read in one pass, not a million.
#[test]
fn a_cloze_of_a_million_braces_is_read_quickly() {
    let braces = "{".repeat(1_000_000);
    let question = format!(
        r#"<question type="cloze"><name><text>Q</text></name><questiontext format="html"><text>{braces} {{1:SA:=x}}</text></questiontext></question>"#
    );
    // Read twice over (each brace's head at most 32 characters), this takes well
    // under a second; read once per brace, it would not finish.
    let read = read_package(bank(&question).as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
}

/// Moodle's dropdowns in a cloze (`MULTICHOICE`, `MCS` shuffled): blanks picked
/// from their own options, each option worth its percent of the blank's share;
/// checkboxes (`MULTIRESPONSE`) skip the question, naming them.
#[test]
fn a_clozes_dropdowns_are_blanks_picked_from_their_own_options() {
    let cloze = r#"<question type="multianswer"><name><text>Dropdowns</text></name><defaultgrade>4</defaultgrade><questiontext format="html"><text><![CDATA[<p>Roses are {1:MC:=red~%50%pink#Close~blue}; the sea is {1:MCS:green~=blue}; {2:SA:=sky} is above.</p>]]></text></questiontext></question><question type="multianswer"><name><text>Checkboxes</text></name><questiontext format="html"><text><![CDATA[{1:MULTIRESPONSE:=a~b} and {1:SA:=c}]]></text></questiontext></question>"#;
    let read = read_package(bank(cloze).as_bytes()).unwrap();
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    assert!(
        read.skipped[0]
            .reason
            .contains("an embedded MULTIRESPONSE (several options of one blank picked)"),
        "{:?}",
        read.skipped
    );
    let item = &read.items[0];
    let Response::Blanks { blanks, .. } = &item.response else {
        panic!("{:?}", item.response);
    };
    assert_eq!(item.max_score, 4);
    let picked = |index: usize| {
        let Blank::Picked { options, shuffle } = &blanks[index] else {
            panic!("{:?}", blanks[index]);
        };
        let options: Vec<(&str, bool, Option<f64>)> = options
            .iter()
            .map(|o| (o.text.as_str(), o.correct, o.mapped_value))
            .collect();
        (options, *shuffle)
    };
    // Weights 1, 1, 2 of a grade of 4: red 1, pink half of it.
    assert_eq!(
        picked(0),
        (
            vec![
                ("red", true, Some(1.0)),
                ("pink", true, Some(0.5)),
                ("blue", false, None)
            ],
            false
        )
    );
    assert_eq!(
        picked(1),
        (
            vec![("green", false, None), ("blue", true, Some(1.0))],
            true
        )
    );
    assert_eq!(blanks[2].typed_keys()[0].text, "sky");
    assert!(
        item.markup
            .contains("Roses are <span class=\"blank\">(1) __________</span>;"),
        "{}",
        item.markup
    );
}
