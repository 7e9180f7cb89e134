//! Hostile QTI 1.2 packages and Moodle XML banks (issue 35): the same refusals as
//! QTI 2.x's, through the new readers and their HTML: a DOCTYPE (entity expansion,
//! external entities), paths out of the package in `matimage` and in the HTML, an
//! external URL, HTML nested past the bound, an oversized document, an embedded "image"
//! that is not one, bytes that are not UTF-8, an item without an ident, matchings of
//! thousands of labels or answers, a gap naming no choice. Each is a
//! 400 naming the part, and nothing of any of them is stored. Script and event
//! handlers in a question's HTML are dropped, never stored.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};

use crate::content_import_hostile::{every_table, refused};
use crate::qti_packages::{imported, manifest, zip};

on_both_backends! {
    hostile_qti12_packages_and_moodle_banks_are_refused_and_store_nothing => hostile;
    script_in_a_qti12_questions_html_is_never_stored => script;
}

const ADMIN: &str = "northwind-admin";

/// A package of one QTI 1.2 document at `quiz/quiz.xml`.
fn quiz(document: &str) -> Vec<u8> {
    zip(&[
        (
            "imsmanifest.xml",
            manifest(&[("q", "imsqti_xmlv1p2", "quiz/quiz.xml")]).into_bytes(),
        ),
        ("quiz/quiz.xml", document.as_bytes().to_vec()),
    ])
}

/// A multiple-choice item whose question is `material` (a `<material>`'s content).
fn item(ident: &str, material: &str) -> String {
    format!(
        r#"<item ident="{ident}" title="Q"><presentation><material>{material}</material><response_lid ident="r" rcardinality="Single"><render_choice><response_label ident="a"><material><mattext>Yes</mattext></material></response_label><response_label ident="b"><material><mattext>No</mattext></material></response_label></render_choice></response_lid></presentation><resprocessing><outcomes><decvar maxvalue="1" varname="SCORE"/></outcomes><respcondition><conditionvar><varequal respident="r">a</varequal></conditionvar><setvar action="Set" varname="SCORE">1</setvar></respcondition></resprocessing></item>"#
    )
}

fn document(items: &str) -> String {
    format!(
        r#"<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"><assessment ident="t" title="Hostile"><section ident="s">{items}</section></assessment></questestinterop>"#
    )
}

fn html(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(r#"<mattext texttype="text/html">{escaped}</mattext>"#)
}

fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">{}]><questestinterop>&lol9;</questestinterop>"#,
        (1..10)
            .map(|i| format!(
                r#"<!ENTITY lol{i} "{}">"#,
                format!("&lol{};", i - 1).repeat(10)
            ))
            .collect::<String>()
    );
    let external = r#"<?xml version="1.0"?><!DOCTYPE q [<!ENTITY x SYSTEM "file:///etc/passwd">]><questestinterop>&x;</questestinterop>"#;
    let deep = format!("<p>{}deep</p>", "<span>".repeat(200));
    let mut oversized = document(&item("big", "<mattext>x</mattext>"));
    oversized.push_str(&" ".repeat(5 * 1024 * 1024));
    vec![
        ("entity expansion", quiz(&laughs), "quiz/quiz.xml"),
        ("an external entity", quiz(external), "DOCTYPE"),
        (
            "a matimage out of the package",
            quiz(&document(&item(
                "i",
                r#"<matimage uri="../../etc/passwd"/>"#,
            ))),
            "leaves the package",
        ),
        (
            "an image in the HTML out of the package",
            quiz(&document(&item(
                "h",
                &html(r#"<p><img src="/etc/passwd"></p>"#),
            ))),
            "quiz/quiz.xml <img src=\"/etc/passwd\">",
        ),
        (
            "an image in the HTML from the web",
            quiz(&document(&item(
                "w",
                &html(r#"<img src="http://tracker.example/x.png">"#),
            ))),
            "tracker.example",
        ),
        (
            "HTML nested past the bound",
            quiz(&document(&item("d", &html(&deep)))),
            "nests deeper",
        ),
        ("an oversized document", quiz(&oversized), "quiz/quiz.xml"),
        (
            "an item without an ident",
            quiz(&document(&item("", "<mattext>Q</mattext>"))),
            "an <item> without an ident",
        ),
        (
            "another document element",
            quiz("<assessmentItem identifier=\"x\"/>"),
            "not <questestinterop>",
        ),
        (
            "a matching of ten thousand labels",
            quiz(&document(&format!(
                r#"<item ident="wide" title="Wide"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>matching_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Match.</mattext></material><response_lid ident="a"><material><mattext>A</mattext></material><render_choice>{}</render_choice></response_lid></presentation></item>"#,
                (0..10_000)
                    .map(|i| format!(r#"<response_label ident="l{i}"><material><mattext>w{i}</mattext></material></response_label>"#))
                    .collect::<String>()
            ))),
            "(wide): more than 26 options to match",
        ),
        (
            "the quiz's file missing",
            zip(&[(
                "imsmanifest.xml",
                manifest(&[("q", "imsqti_xmlv1p2", "quiz/quiz.xml")]).into_bytes(),
            )]),
            "the package has no file quiz/quiz.xml",
        ),
    ]
}

/// A bank of one multiple-choice question whose text is `html` and which carries
/// the base64 `file` named leaf.png.
fn bank(html: &str, file: &str) -> Vec<u8> {
    format!(
        r#"<?xml version="1.0"?><quiz><question type="multichoice"><name><text>Q</text></name><questiontext format="html"><text><![CDATA[{html}]]></text><file name="leaf.png" encoding="base64">{file}</file></questiontext><answer fraction="100"><text>Yes</text></answer><answer fraction="0"><text>No</text></answer></question></quiz>"#
    )
    .into_bytes()
}

fn moodle_corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">{}]><quiz>&lol9;</quiz>"#,
        (1..10)
            .map(|i| format!(
                r#"<!ENTITY lol{i} "{}">"#,
                format!("&lol{};", i - 1).repeat(10)
            ))
            .collect::<String>()
    );
    // "Café" in Latin-1.
    let latin1 = [
        b"<quiz><question type=\"essay\"><name><text>Caf".as_slice(),
        &[0xE9],
        b"</text></name></question></quiz>",
    ]
    .concat();
    vec![
        (
            "a bank with entity expansion",
            laughs.into_bytes(),
            "DOCTYPE",
        ),
        (
            "an image in the HTML out of the package",
            bank(r#"<img src="../../etc/passwd">"#, ""),
            "the XML file <img src=\"../../etc/passwd\">",
        ),
        (
            "an image in the HTML from the web",
            bank(r#"<img src="https://tracker.example/p.gif">"#, ""),
            "tracker.example",
        ),
        (
            "an embedded file that is not an image",
            bank(
                r#"<img src="@@PLUGINFILE@@/leaf.png">"#,
                "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
            ),
            "not an image that can be shown",
        ),
        (
            "HTML nested past the bound",
            bank(&"<span>".repeat(200), ""),
            "nests deeper",
        ),
        ("a bank that is not UTF-8", latin1, "not UTF-8"),
        (
            "a match of twenty thousand answers",
            format!(
                r#"<quiz><question type="match"><name><text>Many</text></name><questiontext format="html"><text>Match.</text></questiontext>{}</question></quiz>"#,
                (0..20_000)
                    .map(|i| format!(r#"<subquestion format="html"><text>row {i}</text><answer><text>answer {i}</text></answer></subquestion>"#))
                    .collect::<String>()
            )
            .into_bytes(),
            "(Many): more than 26 options to match",
        ),
        (
            "a drag and drop whose gap names no choice",
            br#"<quiz><question type="ddwtos"><name><text>Gap</text></name><questiontext format="html"><text>x [[18446744073709551616]] y</text></questiontext><dragbox><text>a</text></dragbox><dragbox><text>b</text></dragbox></question></quiz>"#.to_vec(),
            "[[18446744073709551616]] names no choice",
        ),
        (
            "an XML file that is neither",
            b"<html><body>hello</body></html>".to_vec(),
            "read as a Moodle XML bank",
        ),
    ]
}

async fn hostile(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tables = every_table(&app).await;
    let tables: Vec<&str> = tables.iter().map(String::as_str).collect();
    let before = app.row_counts(&tables).await;
    refused(&app, corpus()).await;
    refused(&app, moodle_corpus()).await;
    assert_eq!(
        app.row_counts(&tables).await,
        before,
        "nothing of any refused package is stored, in any table"
    );
}

async fn script(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let question = html(
        r#"<p onclick="steal()">Pick <b>one</b><script>fetch('/x')</script><style>p{}</style> <a href="javascript:x()">here</a><iframe src="http://x"></iframe></p>"#,
    );
    let report = imported(
        &app,
        ADMIN,
        &quiz(&document(&item("s", &question))),
        "s.zip",
    )
    .await;
    let id = report["Questions"][0]["QuestionId"].as_str().unwrap();
    let markup = app
        .sql_strings(&format!("SELECT markup FROM questions WHERE id = {id}"))
        .await
        .remove(0);
    assert!(markup.contains("Pick <b>one</b>"), "{markup}");
    for gone in [
        "script",
        "fetch",
        "onclick",
        "style",
        "javascript",
        "iframe",
        "href",
    ] {
        assert!(!markup.contains(gone), "{gone}: {markup}");
    }
    let status = app
        .client
        .get(app.url(&format!("{}Questions({id}L)/$value", app.root())))
        .basic_auth(ADMIN, Some(scoredesk_server::seed::demo::DEMO_PASSWORD))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, StatusCode::OK);
}
