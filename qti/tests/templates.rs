//! Template items: the IMS examples `template.xml` (digging a hole: words and
//! numbers drawn, the answer computed), `mc_calc3.xml` (a number drawn from a
//! list, the correct inline choice set by condition), `mc_calc5.xml` (a fraction
//! of a number under three constraints, drawn again until they hold) and
//! `mc_stat2.xml` (part marks for some pairs of blanks: skipped, naming why),
//! read by their draws; each draw checked against the same computation done here
//! from the values it reports. Then the rules a draw applies, on small items.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeSet, HashMap};

use common::{ims, item, package};
use scoredesk_qti::{instantiate, ChoiceScoring, Item, Response, TextScoring};

fn imported(file: &str, xml: String) -> Item {
    let package = package(&[(file, xml)], "");
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    package.items.into_iter().next().unwrap()
}

fn skipped(xml: String) -> String {
    let package = package(&[("t.xml", xml)], "");
    assert!(package.items.is_empty(), "{:?}", package.items);
    package.skipped[0].reason.clone()
}

fn values(item: &Item) -> HashMap<String, String> {
    item.values.iter().cloned().collect()
}

fn int(values: &HashMap<String, String>, name: &str) -> i64 {
    values[name].parse().unwrap()
}

/// The markup's words, whitespace collapsed.
fn words(item: &Item) -> String {
    item.markup.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The 200 draws a snapshot would make with seeds 1 to 200.
fn draws(item: &Item) -> Vec<Item> {
    (1..=200)
        .map(|seed| instantiate(item.template.as_ref().unwrap(), seed).unwrap())
        .collect()
}

fn correct_choice(item: &Item) -> String {
    let Response::Choice { choices, .. } = &item.response else {
        panic!("{:?}", item.response)
    };
    let right: Vec<&str> = choices
        .iter()
        .filter(|c| c.correct)
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(right.len(), 1, "{choices:?}");
    right[0].to_owned()
}

#[test]
fn digging_a_hole_draws_its_people_and_numbers_and_computes_the_key() {
    let item = imported("template.xml", ims("template.xml"));
    assert_eq!(item.max_score, 1);
    assert!(item
        .template
        .as_ref()
        .unwrap()
        .contains("templateProcessing"));
    let v = values(&item);
    assert!(
        item.notes
            .iter()
            .any(|n| n.contains("each snapshot draws its own values")
                && n.contains(&format!("A = {}", v["A"]))),
        "{:?}",
        item.notes
    );
    let mut seen = BTreeSet::new();
    for draw in std::iter::once(item.clone()).chain(draws(&item)) {
        let v = values(&draw);
        let (a, b) = (int(&v, "A"), int(&v, "B"));
        let allowed: &[i64] = match a {
            2 => &[4, 6, 8, 10, 12],
            3 => &[6, 12],
            4 => &[8, 12],
            other => panic!("A = {other}"),
        };
        assert!(allowed.contains(&b), "A = {a}, B = {b}");
        assert_eq!(int(&v, "MIN"), 120 / a);
        let people = &v["PEOPLE"];
        assert!(["men", "women", "children"].contains(&people.as_str()));
        assert!(
            words(&draw).contains(&format!(
                "If it takes {a} {people} {} minutes to dig a hole, how long would it take {b} {people} to dig",
                120 / a
            )),
            "{}",
            draw.markup
        );
        let Response::Text {
            scoring: TextScoring::Key { keys, .. },
            ..
        } = &draw.response
        else {
            panic!("{:?}", draw.response)
        };
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].numeric.unwrap().low, (120 / b) as f64);
        assert_eq!(draw.max_score, 1);
        seen.insert((a, b, people.clone()));
    }
    assert!(seen.len() >= 10, "draws hardly differ: {seen:?}");
    assert!(
        draws(&item).iter().all(|d| d.template.is_none()),
        "an instance is no template"
    );
    // The same seed, the same instance: a snapshot prints and scores one.
    let template = item.template.as_ref().unwrap();
    assert_eq!(
        instantiate(template, 42).unwrap().markup,
        instantiate(template, 42).unwrap().markup
    );
}

#[test]
fn the_divisors_item_keys_the_choice_its_condition_sets() {
    let item = imported("mc_calc3.xml", ims("mc_calc3.xml"));
    assert_eq!(item.max_score, 2, "its processing sets SCORE 2 when right");
    let numbers = [3, 4, 6, 15, 24, 25, 30];
    let divisors = ["-", "2", "2,3", "3,5", "2,3,4,6,8,12", "5", "2,3,5,6,10,15"];
    let mut seen = BTreeSet::new();
    for draw in draws(&item) {
        let v = values(&draw);
        let i = int(&v, "i") as usize;
        assert_eq!(int(&v, "CALC0"), numbers[i - 1]);
        assert!(
            words(&draw).contains(&format!(
                "What are the divisors of {} without 1 and {}?",
                numbers[i - 1],
                numbers[i - 1]
            )),
            "{}",
            draw.markup
        );
        assert_eq!(correct_choice(&draw), divisors[i - 1]);
        seen.insert(i);
    }
    assert_eq!(
        seen.len(),
        7,
        "every i from 1 to 7 is drawn in 200: {seen:?}"
    );
}

#[test]
fn the_fraction_item_draws_again_until_its_constraints_hold() {
    let item = imported("mc_calc5.xml", ims("mc_calc5.xml"));
    assert_eq!(item.max_score, 4, "its processing sets SCORE0 4 when right");
    for draw in draws(&item) {
        let v = values(&draw);
        let (a, b, c) = (int(&v, "a"), int(&v, "b"), int(&v, "c"));
        let gcd = (1..=a.min(b))
            .rev()
            .find(|d| a % d == 0 && b % d == 0)
            .unwrap();
        assert!(gcd == 1 && a < b && (a * c) % b == 0, "a {a} b {b} c {c}");
        assert!((1..=10).contains(&a) && (2..=20).contains(&b) && (-20..=-10).contains(&c));
        assert!(
            words(&draw).contains(&format!("{a}/{b} of {c}")),
            "{}",
            draw.markup
        );
        assert_eq!(
            correct_choice(&draw),
            ((a * c) as f64 / b as f64 + 0.5).floor().to_string()
        );
        let Response::Choice { scoring, .. } = &draw.response else {
            unreachable!()
        };
        assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
    }
}

#[test]
fn part_marks_for_pairs_of_blanks_skip_the_statistics_item() {
    let reason = skipped(ims("mc_stat2.xml"));
    assert!(
        reason.contains("part marks for some combinations of right blanks"),
        "{reason}"
    );
}

fn template(declarations: &str, processing: &str, body: &str) -> String {
    item(
        "t",
        &format!(
            r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"/>
               <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
               {declarations}<templateProcessing>{processing}</templateProcessing>"#
        ),
        body,
        r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#,
    )
}

#[test]
fn a_draw_prints_formats_shows_and_hides_as_the_template_says() {
    let xml = template(
        r#"<templateDeclaration identifier="N" cardinality="single" baseType="integer"/>
           <templateDeclaration identifier="X" cardinality="single" baseType="float"/>
           <templateDeclaration identifier="SHOW" cardinality="single" baseType="identifier"/>"#,
        r#"<setTemplateValue identifier="N"><randomInteger min="3" max="9" step="3"/></setTemplateValue>
           <setTemplateValue identifier="X"><divide><variable identifier="N"/><baseValue baseType="integer">7</baseValue></divide></setTemplateValue>
           <templateCondition><templateIf><gt><variable identifier="N"/><baseValue baseType="integer">3</baseValue></gt>
             <setTemplateValue identifier="SHOW"><baseValue baseType="identifier">big</baseValue></setTemplateValue>
             <setCorrectResponse identifier="RESPONSE"><baseValue baseType="identifier">B</baseValue></setCorrectResponse>
           </templateIf><templateElse>
             <setTemplateValue identifier="SHOW"><baseValue baseType="identifier">small</baseValue></setTemplateValue>
             <setCorrectResponse identifier="RESPONSE"><baseValue baseType="identifier">A</baseValue></setCorrectResponse>
           </templateElse></templateCondition>"#,
        r#"<p>N is <printedVariable identifier="N"/>, N/7 is <printedVariable identifier="X" format="%.2f"/>.
             <templateInline templateIdentifier="SHOW" identifier="big" showHide="show">Big.</templateInline>
             <templateInline templateIdentifier="SHOW" identifier="big" showHide="hide">Small.</templateInline></p>
           <choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
             <simpleChoice identifier="A">small</simpleChoice><simpleChoice identifier="B">big</simpleChoice>
             <simpleChoice identifier="C" templateIdentifier="SHOW" showHide="show">only when big (never: C is no value)</simpleChoice>
           </choiceInteraction>"#,
    );
    let item = imported("t.xml", xml);
    let mut seen = BTreeSet::new();
    for draw in draws(&item) {
        let n = int(&values(&draw), "N");
        let text = words(&draw);
        assert!(
            text.contains(&format!("N is {n}, N/7 is {:.2}.", n as f64 / 7.0)),
            "{text}"
        );
        let big = n > 3;
        assert_eq!(text.contains("Big."), big, "{text}");
        assert_eq!(text.contains("Small."), !big, "{text}");
        assert!(
            !text.contains("never"),
            "a part shown only for another value: {text}"
        );
        assert!(!text.contains("templateInline") && !text.contains("printedVariable"));
        assert_eq!(correct_choice(&draw), if big { "big" } else { "small" });
        seen.insert(n);
    }
    assert_eq!(seen, BTreeSet::from([3, 6, 9]));
}

#[test]
fn templates_that_cannot_be_drawn_are_skipped_naming_why() {
    let never = template(
        r#"<templateDeclaration identifier="N" cardinality="single" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="N"><randomInteger min="1" max="5"/></setTemplateValue>
           <templateConstraint><gt><variable identifier="N"/><baseValue baseType="integer">5</baseValue></gt></templateConstraint>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice></choiceInteraction>"#,
    );
    assert!(skipped(never).contains("not met in 100 draws"));
    let unknown = template(
        r#"<templateDeclaration identifier="N" cardinality="single" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="N"><customOperator class="x"/></setTemplateValue>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice></choiceInteraction>"#,
    );
    assert!(skipped(unknown).contains("<customOperator>"));
    let huge = template(
        r#"<templateDeclaration identifier="L" cardinality="ordered" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="L"><ordered><repeat numberRepeats="1000000000"><randomInteger min="1" max="5"/></repeat></ordered></setTemplateValue>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice></choiceInteraction>"#,
    );
    assert!(skipped(huge).contains("at most 1000"));
    // Repeats of repeats: a million values a draw, a hundred draws; stopped.
    let nested = template(
        r#"<templateDeclaration identifier="L" cardinality="ordered" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="L"><ordered><repeat numberRepeats="1000"><repeat numberRepeats="1000"><baseValue baseType="integer">1</baseValue></repeat></repeat></ordered></setTemplateValue>
           <templateConstraint><isNull><variable identifier="L"/></isNull></templateConstraint>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice></choiceInteraction>"#,
    );
    assert!(skipped(nested).contains("more than 10000 values"));
    // A key only some draws set: a draw without one is not a question.
    let keyless = template(
        r#"<templateDeclaration identifier="N" cardinality="single" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="N"><randomInteger min="1" max="2"/></setTemplateValue>
           <templateCondition><templateIf><match><variable identifier="N"/><baseValue baseType="integer">1</baseValue></match>
           <setCorrectResponse identifier="RESPONSE"><baseValue baseType="identifier">A</baseValue></setCorrectResponse></templateIf></templateCondition>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction>"#,
    );
    let reason = skipped(keyless);
    assert!(
        reason.contains("draw") || reason.contains("correct"),
        "{reason}"
    );
}

#[test]
fn a_package_draws_at_most_two_hundred_templates() {
    let one = template(
        r#"<templateDeclaration identifier="N" cardinality="single" baseType="integer"/>"#,
        r#"<setTemplateValue identifier="N"><randomInteger min="1" max="9"/></setTemplateValue>
           <setCorrectResponse identifier="RESPONSE"><baseValue baseType="identifier">A</baseValue></setCorrectResponse>"#,
        r#"<p><printedVariable identifier="N"/></p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction>"#,
    );
    let files: Vec<(String, String)> = (0..201)
        .map(|i| (format!("t{i}.xml"), one.clone()))
        .collect();
    let items: Vec<(&str, String)> = files.iter().map(|(f, x)| (f.as_str(), x.clone())).collect();
    let package = package(&items, "");
    assert_eq!(package.items.len(), 200, "{:?}", package.skipped.first());
    assert_eq!(package.skipped.len(), 1);
    assert!(
        package.skipped[0]
            .reason
            .contains("first 200 template items"),
        "{:?}",
        package.skipped
    );
}
