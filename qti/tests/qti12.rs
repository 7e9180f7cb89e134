//! QTI 1.2 forms the third-party tools of the API tests do not write: values added
//! per choice (Questionmark's and Blackboard's scoring in points), Blackboard's
//! `flow` wrappers, an essay by its rows, images by `matimage` and by Canvas's
//! `$IMS-CC-FILEBASE$`, and what is skipped with its reason.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write;

use common::zip;
use scoredesk_qti::{
    read_package, Blank, ChoiceScoring, Package, QtiVersion, Response, TextScoring,
};

fn png() -> Vec<u8> {
    let mut png = Vec::new();
    image::GrayImage::from_pixel(2, 2, image::Luma([10]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

/// A package holding `items` in one QTI 1.2 document at `g1/g1.xml`, and an image
/// at `web_resources/Uploaded Media/leaf.png`.
fn quiz(items: &str) -> Package {
    let manifest = r#"<manifest identifier="m"><resources><resource identifier="g1" type="imsqti_xmlv1p2"><file href="g1/g1.xml"/></resource></resources></manifest>"#;
    let document = format!(
        r#"<questestinterop><assessment ident="a" title="Mixed bag"><section ident="root_section">{items}</section></assessment></questestinterop>"#
    );
    let mut bytes = zip(&[
        ("imsmanifest.xml", manifest.to_owned()),
        ("g1/g1.xml", document),
    ]);
    let mut writer = zip::ZipWriter::new_append(std::io::Cursor::new(&mut bytes)).unwrap();
    writer
        .start_file(
            "web_resources/Uploaded Media/leaf.png",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
    writer.write_all(&png()).unwrap();
    writer.finish().unwrap();
    read_package(&bytes).unwrap()
}

const CHOICES: &str = r#"<render_choice shuffle="Yes"><flow_label><response_label ident="A"><flow_mat><material><mattext>Red</mattext></material></flow_mat></response_label><response_label ident="B"><material><mattext>Green</mattext></material></response_label><response_label ident="C"><material><mattext>Blue</mattext></material></response_label></flow_label></render_choice>"#;

#[test]
fn values_added_per_choice_are_a_mapping_in_points() {
    let item = format!(
        r#"<item ident="colours" title="Colours"><presentation><flow><flow_mat><material><mattext>Which are primary colours of light?</mattext></material></flow_mat><response_lid ident="r" rcardinality="Multiple">{CHOICES}</response_lid></flow></presentation>
        <resprocessing><outcomes><decvar varname="SCORE" maxvalue="2" minvalue="0"/></outcomes>
        <respcondition><conditionvar><varequal respident="r">A</varequal></conditionvar><setvar action="Add">1</setvar></respcondition>
        <respcondition><conditionvar><varequal respident="r">B</varequal></conditionvar><setvar action="Add">1</setvar></respcondition>
        <respcondition><conditionvar><varequal respident="r">C</varequal></conditionvar><setvar action="Subtract">1</setvar></respcondition></resprocessing></item>"#
    );
    let read = quiz(&item);
    assert_eq!(read.version, QtiVersion::V1);
    assert_eq!(read.title, "Mixed bag");
    let item = &read.items[0];
    assert_eq!(item.stem, "Which are primary colours of light?");
    let Response::Choice {
        multiple: true,
        shuffle: true,
        choices,
        scoring: ChoiceScoring::MapResponse { .. },
        ..
    } = &item.response
    else {
        panic!("a mapped multiple choice: {:?}", item.response);
    };
    let values: Vec<(&str, Option<f64>)> = choices
        .iter()
        .map(|c| (c.text.as_str(), c.mapped_value))
        .collect();
    assert_eq!(
        values,
        [
            ("Red", Some(1.0)),
            ("Green", Some(1.0)),
            ("Blue", Some(-1.0))
        ]
    );
    assert_eq!(item.max_score, 2, "the score variable's maxvalue");
}

#[test]
fn an_essay_by_its_rows_and_images_by_both_forms_come_in() {
    let essay = r#"<item ident="essay" title="Essay"><presentation><material><mattext texttype="text/html">&lt;p&gt;Describe the leaf. &lt;img src="$IMS-CC-FILEBASE$/Uploaded%20Media/leaf.png" alt="leaf"&gt;&lt;/p&gt;</mattext></material><response_str ident="r" rcardinality="Single"><render_fib rows="10" fibtype="String"><response_label ident="a"/></render_fib></response_str></presentation><resprocessing><outcomes><decvar varname="SCORE" maxvalue="5"/></outcomes></resprocessing></item>"#;
    let picture = format!(
        r#"<item ident="pic" title="Picture"><presentation><material><mattext>Which colour is this?</mattext><matbreak/><matimage imagtype="image/png" uri="../web_resources/Uploaded Media/leaf.png" label="a swatch"/></material><response_lid ident="r" rcardinality="Single">{CHOICES}</response_lid></presentation><resprocessing><respcondition><conditionvar><varequal respident="r">B</varequal></conditionvar><setvar>1</setvar></respcondition></resprocessing></item>"#
    );
    let read = quiz(&format!("{essay}{picture}"));
    assert_eq!(read.skipped.len(), 0, "{:?}", read.skipped);
    let essay = &read.items[0];
    assert_eq!(
        essay.response,
        Response::Text {
            extended: true,
            scoring: TextScoring::Person
        }
    );
    assert_eq!(essay.max_score, 5);
    assert!(
        essay.markup.contains("<img src=\"data:image/png;base64,"),
        "{}",
        essay.markup
    );
    let picture = &read.items[1];
    assert!(
        picture.markup.contains("alt=\"a swatch\""),
        "{}",
        picture.markup
    );
    assert!(
        picture.markup.contains("<br/>") || picture.markup.contains("<br />"),
        "{}",
        picture.markup
    );
    let Response::Choice {
        choices, scoring, ..
    } = &picture.response
    else {
        panic!("a choice: {:?}", picture.response);
    };
    assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
    let correct: Vec<&str> = choices
        .iter()
        .filter(|c| c.correct)
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(correct, ["Green"]);
    assert_eq!(read.images, 1, "one image, inlined twice");
}

#[test]
fn what_cannot_be_marked_is_skipped_naming_why() {
    let hotspot = r#"<item ident="spot" title="Spot"><presentation><material><mattext>Click the heart.</mattext></material><response_xy ident="r" rcardinality="Single"><render_hotspot/></response_xy></presentation></item>"#;
    let two = r#"<item ident="two" title="Two"><presentation><material><mattext>Name two.</mattext></material><response_str ident="a"><render_fib/></response_str><response_str ident="b"><render_fib/></response_str></presentation></item>"#;
    let none = r#"<item ident="none" title="None"><presentation><material><mattext>Read this.</mattext></material></presentation></item>"#;
    let bad_points = r#"<item ident="pts" title="Pts"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>lots</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Q</mattext></material></presentation></item>"#;
    let half = r#"<item ident="half" title="Half"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>essay_question</fieldentry></qtimetadatafield><qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>0.5</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Why?</mattext></material><response_str ident="r"><render_fib/></response_str></presentation></item>"#;
    let read = quiz(&format!("{hotspot}{two}{none}{bad_points}{half}"));
    assert!(read.items.is_empty());
    let reasons: Vec<(&str, &str)> = read
        .skipped
        .iter()
        .map(|s| (s.identifier.as_str(), s.reason.as_str()))
        .collect();
    assert!(
        reasons[0].1.contains("<response_xy> is not imported"),
        "{reasons:?}"
    );
    assert!(
        reasons[1]
            .1
            .contains("blank 1 ([a]) has no answer that scores"),
        "{reasons:?}"
    );
    assert!(reasons[2].1.contains("nothing to answer"), "{reasons:?}");
    assert!(
        reasons[3]
            .1
            .contains("points_possible: 'lots' is not a number"),
        "{reasons:?}"
    );
    assert!(
        reasons[4].1.contains("0.5 is not a whole number"),
        "{reasons:?}"
    );
    assert_eq!(reasons[4].0, "half");
    assert!(read.skipped.iter().all(|s| s.file == "g1/g1.xml"));
}

#[test]
fn a_matchings_rows_pick_from_shared_labels_and_a_stray_condition_skips_it() {
    let row = |ident: &str, words: &str| {
        format!(
            r#"<response_lid ident="{ident}"><material><mattext>{words}</mattext></material><render_choice><response_label ident="x"><material><mattext>Noble gas</mattext></material></response_label><response_label ident="y"><material><mattext>Alkali metal</mattext></material></response_label></render_choice></response_lid>"#
        )
    };
    let condition = |row: &str, label: &str| {
        format!(
            r#"<respcondition><conditionvar><varequal respident="{row}">{label}</varequal></conditionvar><setvar action="Add">1</setvar></respcondition>"#
        )
    };
    // Without Canvas's metadata: the shared labels say it is a matching.
    let item = |ident: &str, second: &str| {
        format!(
            r#"<item ident="{ident}" title="{ident}"><presentation><material><mattext>Match.</mattext></material>{}{}</presentation><resprocessing><outcomes><decvar maxvalue="2" varname="SCORE"/></outcomes>{}{}</resprocessing></item>"#,
            row("neon", "Neon"),
            row("sodium", "Sodium"),
            condition("neon", "x"),
            condition("sodium", second),
        )
    };
    let read = quiz(&format!("{}{}", item("good", "y"), item("stray", "z")));
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let Response::Matching {
        rows,
        options,
        pairs,
        scoring,
        ..
    } = &read.items[0].response
    else {
        panic!("{:?}", read.items[0].response);
    };
    assert_eq!(rows, &["Neon", "Sodium"]);
    let options: Vec<&str> = options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(options, ["Noble gas", "Alkali metal"]);
    let pairs: Vec<(usize, usize, Option<f64>)> = pairs
        .iter()
        .map(|p| (p.row, p.option, p.mapped_value))
        .collect();
    assert_eq!(pairs, [(0, 0, Some(1.0)), (1, 1, Some(1.0))]);
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(read.items[0].max_score, 2);
    assert!(
        read.skipped[0]
            .reason
            .contains("names 'z', not an option of row 'sodium'"),
        "{:?}",
        read.skipped
    );
}

/// A Canvas blank as its export writes one: a `response_lid` named by its word,
/// its labels (`(ident, words)`) with idents of their own.
fn canvas_blank(name: &str, labels: &[(&str, &str)]) -> String {
    let labels: String = labels
        .iter()
        .map(|(ident, words)| {
            format!(r#"<response_label ident="{ident}"><material><mattext texttype="text/plain">{words}</mattext></material></response_label>"#)
        })
        .collect();
    format!(
        r#"<response_lid ident="response_{name}"><material><mattext>{name}</mattext></material><render_choice>{labels}</render_choice></response_lid>"#
    )
}

/// Canvas's multiple dropdowns, as its export writes them: a blank per
/// `response_lid` named by its word, each blank's choices with idents of their
/// own, a share of the points per right blank. Each bracket becomes a blank in
/// place, picked from its own list.
#[test]
fn canvas_dropdowns_are_blanks_each_picked_from_its_own_list() {
    let right = |name: &str, ident: &str| {
        format!(
            r#"<respcondition><conditionvar><varequal respident="response_{name}">{ident}</varequal></conditionvar><setvar varname="SCORE" action="Add">50.00</setvar></respcondition>"#
        )
    };
    let item = format!(
        r#"<item ident="drop" title="Dropdowns"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>multiple_dropdowns_question</fieldentry></qtimetadatafield><qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>2.0</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext texttype="text/html">&lt;p&gt;Roses are [color1], violets are [color2].&lt;/p&gt;</mattext></material>{}{}</presentation><resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>{}{}</resprocessing></item>"#,
        canvas_blank("color1", &[("101", "red"), ("102", "blue")]),
        canvas_blank(
            "color2",
            &[("201", "red"), ("202", "blue"), ("203", "green")]
        ),
        right("color1", "101"),
        right("color2", "202"),
    );
    let read = quiz(&item);
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let Response::Blanks { blanks, scoring } = &read.items[0].response else {
        panic!("{:?}", read.items[0].response);
    };
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    let lists: Vec<Vec<(&str, bool, Option<f64>)>> = blanks
        .iter()
        .map(|blank| {
            let Blank::Picked { options, shuffle } = blank else {
                panic!("{blank:?}");
            };
            assert!(!shuffle);
            options
                .iter()
                .map(|o| (o.text.as_str(), o.correct, o.mapped_value))
                .collect()
        })
        .collect();
    assert_eq!(
        lists,
        [
            vec![("red", true, Some(1.0)), ("blue", false, None)],
            vec![
                ("red", false, None),
                ("blue", true, Some(1.0)),
                ("green", false, None)
            ]
        ],
        "each blank its own words, half of 2 for each right one"
    );
    assert_eq!(read.items[0].max_score, 2);
    let markup = &read.items[0].markup;
    assert!(
        markup.contains("Roses are <span class=\"blank\">(1) __________</span>, violets"),
        "{markup}"
    );
}

/// Canvas's fill in multiple blanks as Canvas writes it: each blank a
/// `response_lid` named by its word, its answers labels with idents of their own,
/// each condition testing a blank by a label's ident and adding its share. Each
/// bracket becomes a blank in place, keyed by the labels' words in any case.
#[test]
fn canvas_blanks_are_keyed_by_their_labels_words_in_place() {
    let right = |name: &str, idents: &[&str]| {
        let tests: String = idents
            .iter()
            .map(|ident| format!(r#"<varequal respident="response_{name}">{ident}</varequal>"#))
            .collect();
        format!(
            r#"<respcondition><conditionvar><or>{tests}</or></conditionvar><setvar varname="SCORE" action="Add">50.00</setvar></respcondition>"#
        )
    };
    let item = format!(
        r#"<item ident="fimb" title="Blanks"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>fill_in_multiple_blanks_question</fieldentry></qtimetadatafield><qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>2.0</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext texttype="text/html">&lt;p&gt;Roses are &lt;b&gt;[color1]&lt;/b&gt;, violets are [color2].&lt;/p&gt;</mattext></material>{}{}</presentation><resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>{}{}</resprocessing></item>"#,
        canvas_blank("color1", &[("101", "red"), ("102", "Red")]),
        canvas_blank("color2", &[("201", "blue")]),
        right("color1", &["101", "102"]),
        right("color2", &["201"]),
    );
    let read = quiz(&item);
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let Response::Blanks { blanks, scoring } = &read.items[0].response else {
        panic!("{:?}", read.items[0].response);
    };
    let keys: Vec<Vec<(&str, Option<f64>, bool)>> = blanks
        .iter()
        .map(|blank| {
            blank
                .typed_keys()
                .iter()
                .map(|k| (k.text.as_str(), k.mapped_value, k.case_sensitive))
                .collect()
        })
        .collect();
    assert_eq!(
        keys,
        [
            vec![("red", Some(1.0), false), ("Red", Some(1.0), false)],
            vec![("blue", Some(1.0), false)]
        ],
        "half of 2 each, any case"
    );
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(read.items[0].max_score, 2);
    let markup = &read.items[0].markup;
    assert!(
        markup.contains("Roses are <b><span class=\"blank\">(1) __________</span></b>, violets are <span class=\"blank\">(2) __________</span>."),
        "{markup}"
    );
}

/// Blackboard's Fill in the Blank Plus: a `response_str` per blank named by its
/// ident, one condition over every blank setting the maximum: all or nothing.
#[test]
fn blackboard_blanks_are_all_or_nothing() {
    let item = r#"<item title="Water"><itemmetadata><bbmd_questiontype>Fill in the Blank Plus</bbmd_questiontype></itemmetadata><presentation><flow class="Block"><flow class="QUESTION_BLOCK"><flow class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="SMART_TEXT">Water is [a] and [b].</mat_formattedtext></mat_extension></material></flow></flow><flow class="RESPONSE_BLOCK"><response_str ident="a" rcardinality="Single"><render_fib fibtype="String"/></response_str><response_str ident="b" rcardinality="Single"><render_fib fibtype="String"/></response_str></flow></flow></presentation><resprocessing scoremodel="SumOfScores"><outcomes><decvar varname="SCORE" vartype="Decimal" defaultval="0" minvalue="0" maxvalue="4.00000"/></outcomes><respcondition title="correct"><conditionvar><and><or><varequal respident="a" case="No">hydrogen</varequal><varequal respident="a" case="No">H</varequal></or><or><varequal respident="b" case="Yes">Oxygen</varequal></or></and></conditionvar><setvar variablename="SCORE" action="Set">SCORE.max</setvar></respcondition><respcondition title="incorrect"><conditionvar><other/></conditionvar><setvar variablename="SCORE" action="Set">0</setvar></respcondition></resprocessing></item>"#;
    let read = quiz(item);
    assert_eq!(read.items.len(), 1, "{:?}", read.skipped);
    let Response::Blanks { blanks, scoring } = &read.items[0].response else {
        panic!("{:?}", read.items[0].response);
    };
    let words: Vec<Vec<(&str, bool)>> = blanks
        .iter()
        .map(|blank| {
            blank
                .typed_keys()
                .iter()
                .map(|k| (k.text.as_str(), k.case_sensitive))
                .collect()
        })
        .collect();
    assert_eq!(
        words,
        [
            vec![("hydrogen", false), ("H", false)],
            vec![("Oxygen", true)]
        ]
    );
    assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
    assert_eq!(read.items[0].max_score, 4);
    assert!(read.items[0]
        .markup
        .contains("Water is <span class=\"blank\">(1) __________</span> and"));
}

/// A hostile matching of ten thousand labels, or of ten thousand rows, is
/// skipped at once: its labels are never compared with each other.
#[test]
fn a_matching_of_thousands_is_skipped_quickly() {
    let labels: String = (0..10_000)
        .map(|i| format!(r#"<response_label ident="l{i}"><material><mattext>word {i}</mattext></material></response_label>"#))
        .collect();
    let wide = format!(
        r#"<item ident="wide" title="Wide"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>matching_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Match.</mattext></material><response_lid ident="a"><material><mattext>A</mattext></material><render_choice>{labels}</render_choice></response_lid><response_lid ident="b"><material><mattext>B</mattext></material><render_choice>{labels}</render_choice></response_lid></presentation></item>"#
    );
    let rows: String = (0..10_000)
        .map(|i| format!(r#"<response_lid ident="r{i}"><material><mattext>row</mattext></material><render_choice><response_label ident="x"><material><mattext>X</mattext></material></response_label></render_choice></response_lid>"#))
        .collect();
    let tall = format!(
        r#"<item ident="tall" title="Tall"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>matching_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Match.</mattext></material>{rows}</presentation></item>"#
    );
    let read = quiz(&format!("{wide}{tall}"));
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(reasons[0].contains("more than 26 options"), "{reasons:?}");
    assert!(reasons[1].contains("more than 40 rows"), "{reasons:?}");
}
