//! The structure-aware targets: libFuzzer's bytes read as a structure with
//! `arbitrary` (deterministically, so that a kept input replays the same), which
//! reaches what random bytes rarely do: well-formed `$batch` requests whose parts
//! go wrong one way at a time, and snapshots of any text.

use arbitrary::{Arbitrary, Unstructured};

use scoredesk_server::documents::snapshot_xml::{self, SnapshotHeader};
use scoredesk_server::model::matching::Parts;
use scoredesk_server::model::question_kind::QuestionKind;
use scoredesk_server::model::result_scores::Topic;
use scoredesk_server::model::scoring_rule::ScoringRule;
use scoredesk_server::model::snapshot::{SnapshotChoice, SnapshotQuestion};

/// Entity sets and paths a `$batch` part addresses, so that parts reach handlers.
const URLS: &[&str] = &[
    "ScoringTasks",
    "ScoringTasks(QuestionID=2185231530100001L,ResultID=1)",
    "ScoringTasks/$count?$filter=Status eq 0",
    "ScoringResults",
    "DimensionScores",
    "Results?$top=2",
    "Attempts",
    "AnswerUploads",
    "AssessmentSnapshots",
    "PrintBatches",
    "$metadata",
    "$1",
];

const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "MERGE", "PATCH", "HEAD", "get",
];

#[derive(Arbitrary, Debug)]
struct Request {
    method: u8,
    /// An index into [`URLS`], with `suffix` after it, or free text.
    url: u8,
    suffix: String,
    free_url: Option<String>,
    content_id: Option<String>,
    headers: Vec<(String, String)>,
    json: bool,
    body: Vec<u8>,
    /// `HTTP/1.1`, or something else.
    version: Option<String>,
}

#[derive(Arbitrary, Debug)]
enum Part {
    Query(Request),
    ChangeSet(Vec<Request>),
    Raw(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
struct Batch {
    parts: Vec<Part>,
    /// Bare LF line ends instead of CRLF.
    bare_lf: bool,
    /// Leave out the closing delimiter.
    unclosed: bool,
}

impl Request {
    fn write(&self, out: &mut Vec<u8>, eol: &str) {
        let method = METHODS[usize::from(self.method) % METHODS.len()];
        let url = match &self.free_url {
            Some(url) => url.clone(),
            None => format!(
                "{}{}",
                URLS[usize::from(self.url) % URLS.len()],
                self.suffix
            ),
        };
        let version = self.version.as_deref().unwrap_or("HTTP/1.1");
        out.extend_from_slice(
            format!("Content-Type: application/http{eol}Content-Transfer-Encoding: binary{eol}")
                .as_bytes(),
        );
        if let Some(id) = &self.content_id {
            out.extend_from_slice(format!("Content-ID: {id}{eol}").as_bytes());
        }
        out.extend_from_slice(format!("{eol}{method} {url} {version}{eol}").as_bytes());
        if self.json {
            out.extend_from_slice(format!("Content-Type: application/json{eol}").as_bytes());
        }
        for (name, value) in &self.headers {
            out.extend_from_slice(format!("{name}: {value}{eol}").as_bytes());
        }
        out.extend_from_slice(eol.as_bytes());
        out.extend_from_slice(&self.body);
        out.extend_from_slice(eol.as_bytes());
    }
}

impl Batch {
    fn write(&self) -> Vec<u8> {
        let eol = if self.bare_lf { "\n" } else { "\r\n" };
        let mut out = Vec::new();
        for part in &self.parts {
            out.extend_from_slice(format!("--b{eol}").as_bytes());
            match part {
                Part::Query(request) => request.write(&mut out, eol),
                Part::ChangeSet(requests) => {
                    out.extend_from_slice(
                        format!("Content-Type: multipart/mixed; boundary=cs{eol}{eol}").as_bytes(),
                    );
                    for request in requests {
                        out.extend_from_slice(format!("--cs{eol}").as_bytes());
                        request.write(&mut out, eol);
                    }
                    out.extend_from_slice(format!("--cs--{eol}").as_bytes());
                }
                Part::Raw(bytes) => out.extend_from_slice(bytes),
            }
        }
        if !self.unclosed {
            out.extend_from_slice(format!("--b--{eol}").as_bytes());
        }
        out
    }
}

/// A `$batch` request built from the input, run through the whole router as
/// [`super::odata_request`] runs one (an answer of 500 or more fails).
pub fn batch(data: &[u8]) {
    let Ok(batch) = Batch::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let mut request = b"\x01$batch\n".to_vec();
    request.extend_from_slice(&batch.write());
    super::odata_request(&request);
}

#[derive(Arbitrary, Debug)]
struct Snapshot {
    id: i32,
    assessment_id: i64,
    language: Option<String>,
    questions: Vec<Question>,
}

#[derive(Arbitrary, Debug)]
struct Question {
    question_id: i64,
    kind: u8,
    max_score: i32,
    topic: Option<String>,
    choices: Vec<String>,
    max_choices: Option<i32>,
}

/// Whether `c` may appear in an XML 1.0 document (written out here, apart from
/// the server's own `xml::is_xml_char`, so that the two check each other).
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// What a text may become in the document: each character XML 1.0 cannot carry
/// replaced by U+FFFD, and nothing else changed.
fn as_xml_carries(text: &str) -> String {
    text.chars()
        .map(|c| if xml_char(c) { c } else { '\u{FFFD}' })
        .collect()
}

/// A snapshot of any texts written as `AssessmentSnapshotData` and read back:
/// the document must be XML 1.0 that a parser reads whole, and give back every
/// text as it was (what XML cannot carry at all as U+FFFD): the language, each
/// topic and each choice.
pub fn snapshot_xml(data: &[u8]) {
    let Ok(snapshot) = Snapshot::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let kinds = [
        QuestionKind::MultipleChoice,
        QuestionKind::MultipleResponse,
        QuestionKind::Essay,
        QuestionKind::TextEntry,
        QuestionKind::Matching,
    ];
    let questions: Vec<SnapshotQuestion> = snapshot
        .questions
        .iter()
        .enumerate()
        .map(|(n, q)| SnapshotQuestion {
            order: n as i32 + 1,
            question_id: q.question_id,
            kind: kinds[usize::from(q.kind) % kinds.len()],
            // A matching's parts: any text, as its choices are.
            parts: Parts {
                texts: if kinds[usize::from(q.kind) % kinds.len()] == QuestionKind::Matching {
                    q.choices.clone()
                } else {
                    Vec::new()
                },
                keys: Vec::new(),
            },
            max_score: q.max_score,
            max_choices: q.max_choices,
            picture: None,
            topic: q.topic.clone().map(|path| Topic { id: 1, path }),
            choices: q
                .choices
                .iter()
                .enumerate()
                .map(|(c, text)| SnapshotChoice {
                    order: c as i32 + 1,
                    question_choice: c as i32 + 1,
                    text: text.clone(),
                    correct: false,
                    mapped_value: None,
                    part: 0,
                })
                .collect(),
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
        })
        .collect();
    let header = SnapshotHeader {
        id: snapshot.id,
        assessment_id: snapshot.assessment_id,
        language: snapshot.language.as_deref(),
    };
    let document = snapshot_xml::write(&header, &questions);
    let text = std::str::from_utf8(&document).expect("the document is UTF-8");
    if let Some(bad) = text.chars().find(|c| !xml_char(*c)) {
        panic!(
            "U+{:04X} is not allowed in XML 1.0, yet written",
            u32::from(bad)
        );
    }
    let mut expected: Vec<String> = Vec::new();
    expected.extend(snapshot.language.as_deref().map(as_xml_carries));
    for question in &snapshot.questions {
        expected.extend(question.topic.as_deref().map(as_xml_carries));
        expected.extend(question.choices.iter().map(|c| as_xml_carries(c)));
    }
    let read = read_back(text);
    assert_eq!(read, expected, "the texts read back from\n{text}");
}

/// The language, topics and choice texts of a snapshot document, in order, as a
/// conforming XML parser reads them: line ends normalised to LF in text, and tab,
/// CR and LF written raw in an attribute read as spaces (XML 1.0, 2.11 and 3.3.3),
/// which quick-xml alone does not do.
fn read_back(text: &str) -> Vec<String> {
    use quick_xml::events::{BytesStart, Event};
    let attributes = |element: &BytesStart, found: &mut Vec<String>| {
        let name = element.name().as_ref().to_vec();
        for attribute in element.attributes() {
            let attribute = attribute.expect("a well-formed attribute");
            let key = attribute.key.as_ref();
            if (name == b"AssessmentSnapshot" && key == b"Language")
                || (name == b"Question" && key == b"Topic")
            {
                let raw = std::str::from_utf8(&attribute.value).expect("UTF-8");
                let normalised = raw.replace(['\t', '\n', '\r'], " ");
                let value =
                    quick_xml::escape::unescape(&normalised).expect("an attribute that unescapes");
                found.push(value.into_owned());
            }
        }
    };
    let mut reader = quick_xml::Reader::from_str(text);
    let mut found = Vec::new();
    let mut in_choice = None::<String>;
    loop {
        match reader.read_event().expect("the document parses") {
            Event::Start(element) => {
                attributes(&element, &mut found);
                if element.name().as_ref() == b"Choice" {
                    in_choice = Some(String::new());
                }
            }
            Event::Empty(element) => {
                attributes(&element, &mut found);
                if element.name().as_ref() == b"Choice" {
                    found.push(String::new());
                }
            }
            Event::Text(content) => {
                if let Some(choice) = in_choice.as_mut() {
                    let raw = std::str::from_utf8(&content).expect("UTF-8");
                    let normalised = raw.replace("\r\n", "\n").replace('\r', "\n");
                    choice.push_str(
                        &quick_xml::escape::unescape(&normalised).expect("text that unescapes"),
                    );
                }
            }
            // quick-xml reports `&lt;` and `&#13;` in text as events of their own.
            Event::GeneralRef(reference) => {
                if let Some(choice) = in_choice.as_mut() {
                    match reference
                        .resolve_char_ref()
                        .expect("a valid character reference")
                    {
                        Some(c) => choice.push(c),
                        None => {
                            let name = std::str::from_utf8(&reference).expect("UTF-8");
                            let text = quick_xml::escape::resolve_predefined_entity(name)
                                .expect("only the predefined entities");
                            choice.push_str(text);
                        }
                    }
                }
            }
            Event::CData(content) => {
                if let Some(choice) = in_choice.as_mut() {
                    choice.push_str(std::str::from_utf8(&content).expect("UTF-8"));
                }
            }
            Event::End(element) if element.name().as_ref() == b"Choice" => {
                found.extend(in_choice.take());
            }
            Event::Eof => return found,
            _ => {}
        }
    }
}
