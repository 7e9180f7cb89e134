//! Answer groups (docs/marking-quality.md, "Answer groups"): the typed answers of
//! one question that say the same once normalised, which a marker marks once and
//! applies to the rest. An answer's group is a key written with the answer, so
//! that finding a group is one indexed read, not a read of every answer.
//!
//! "The same" is deliberately narrow: a group's members get one mark, so two
//! answers that could deserve different marks must never share a key. Case,
//! spacing, compatibility forms (full-width letters, ligatures) and punctuation
//! around words do not change a mark; digits, signs and symbols may (`-5` is not
//! `5`, `x+2` is not `x=2`), so they are kept.

use sha2::{Digest, Sha256};

use crate::model::scoring::TaskStatus;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// At most this many members are marked by one application (one transaction);
/// a larger group is marked in several, each whole.
pub const GROUP_LIMIT: usize = 500;

/// The group key of an answer: typed answers (`text/plain`) only, since a scan
/// says nothing comparable. Equal keys, equal normalised text.
pub fn answer_key(media_type: &str, content: &[u8]) -> Option<String> {
    if !is_typed(media_type) {
        return None;
    }
    let text = String::from_utf8_lossy(content);
    let digest = Sha256::digest(normalised(&text).as_bytes());
    // 128 bits: no two different answers of a question collide in practice, and
    // the index stays small whatever the answer's length.
    Some(
        digest[..16]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect(),
    )
}

/// Whether answers of `media_type` have a group key.
pub fn is_typed(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("text/plain")
}

/// The text as grouping compares it: NFKC, lower case, punctuation dropped
/// unless it touches a digit, white space aside (`3.5`, `1,000`, `-5`,
/// `10 - 5`, `50%`; but a full stop,
/// comma, colon, semicolon, `!` or `?` ending a sentence after a number goes),
/// runs of white space made one space, none at either end.
pub fn normalised(text: &str) -> String {
    let chars: Vec<char> = text
        .nfkc()
        .collect::<String>()
        .to_lowercase()
        .chars()
        .collect();
    // Past white space: `10 - 5` is a subtraction, not `10 5`.
    let touches_digit = |at: usize| {
        let before = chars[..at].iter().rev().find(|c| !c.is_whitespace());
        let after = chars[at + 1..].iter().find(|c| !c.is_whitespace());
        before.into_iter().chain(after).any(|c| c.is_numeric())
    };
    let ends_sentence = |at: usize| {
        matches!(chars[at], '.' | ',' | ':' | ';' | '!' | '?')
            && chars.get(at + 1).is_none_or(|c| c.is_whitespace())
    };
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for (at, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if c.general_category_group() == GeneralCategoryGroup::Punctuation
            && (!touches_digit(at) || ends_sentence(at))
        {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// A marked script as the rule of applying it to its group sees it.
#[derive(Debug, Clone)]
pub struct MarkedScript {
    pub status: TaskStatus,
    /// Its answer is typed (has a group key).
    pub typed: bool,
    /// It has a ScoringResult (its question a rubric).
    pub has_result: bool,
    /// Its dimensions without a score (or 1 for a rubric without dimensions
    /// and no overall score).
    pub unscored: usize,
    /// It is scored against the question's current rubric version.
    pub rubric_current: bool,
    /// The reader set it to where it is; a lead or an administrator may apply
    /// anyone's marks (they answer for them), a scorer only his own.
    pub marked_by_reader: bool,
    pub reader_is_scorer: bool,
}

/// Why a script's marks may not be applied to its group.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 409: the script is not (yet) in a state to be applied.
    Conflict(String),
    /// 403: the reader may not apply them.
    Forbidden(String),
}

/// A script's marks go to its group when it is marked (Saved or Scored) in full
/// against the current rubric, its answer typed, by the reader if he is a scorer.
pub fn check_source(script: &MarkedScript) -> Result<(), Refusal> {
    use Refusal::*;
    if !script.typed {
        return Err(Conflict(
            "its answer is not typed text: only typed answers have an answer group".into(),
        ));
    }
    if !matches!(script.status, TaskStatus::Saved | TaskStatus::Scored) {
        return Err(Conflict(format!(
            "it is at Status {}: mark it (Status 3) first, then apply its marks to the answers \
             alike",
            script.status
        )));
    }
    if !script.has_result {
        return Err(Conflict(
            "it has no ScoringResult: its question has no rubric to mark by".into(),
        ));
    }
    if script.unscored > 0 {
        return Err(Conflict(format!(
            "{} of its dimensions are not scored: a group gets a whole marking",
            script.unscored
        )));
    }
    if !script.rubric_current {
        return Err(Conflict(
            "it was marked against an earlier version of the rubric: mark it again first".into(),
        ));
    }
    if script.reader_is_scorer && !script.marked_by_reader {
        return Err(Forbidden(
            "another marker marked it: a marker applies his own marks only".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked() -> MarkedScript {
        MarkedScript {
            status: TaskStatus::Scored,
            typed: true,
            has_result: true,
            unscored: 0,
            rubric_current: true,
            marked_by_reader: true,
            reader_is_scorer: true,
        }
    }

    #[test]
    fn a_script_marked_in_full_by_the_reader_may_be_applied() {
        assert_eq!(check_source(&marked()), Ok(()));
        let saved = MarkedScript {
            status: TaskStatus::Saved,
            ..marked()
        };
        assert_eq!(check_source(&saved), Ok(()), "kept for a second marking");
        let leads = MarkedScript {
            marked_by_reader: false,
            reader_is_scorer: false,
            ..marked()
        };
        assert_eq!(check_source(&leads), Ok(()), "a lead applies anyone's");
    }

    #[test]
    fn each_gap_is_named() {
        let refused = |script: MarkedScript, words: &str| match check_source(&script) {
            Err(Refusal::Conflict(message)) | Err(Refusal::Forbidden(message)) => {
                assert!(message.contains(words), "{message}")
            }
            Ok(()) => panic!("{script:?} was accepted"),
        };
        refused(
            MarkedScript {
                typed: false,
                ..marked()
            },
            "not typed",
        );
        for status in [TaskStatus::Unscored, TaskStatus::Locked] {
            refused(
                MarkedScript { status, ..marked() },
                "mark it (Status 3) first",
            );
        }
        refused(
            MarkedScript {
                has_result: false,
                ..marked()
            },
            "no rubric",
        );
        refused(
            MarkedScript {
                unscored: 2,
                ..marked()
            },
            "2 of its dimensions",
        );
        refused(
            MarkedScript {
                rubric_current: false,
                ..marked()
            },
            "earlier version",
        );
        assert!(matches!(
            check_source(&MarkedScript {
                marked_by_reader: false,
                ..marked()
            }),
            Err(Refusal::Forbidden(_))
        ));
    }

    #[test]
    fn case_spacing_and_punctuation_around_words_make_one_group() {
        let same = [
            "Paris",
            "paris.",
            "  PARIS!  ",
            "\"Paris\"",
            "Paris\u{00a0}",
            "Ｐａｒｉｓ",
        ];
        for text in same {
            assert_eq!(normalised(text), "paris", "{text:?}");
        }
        assert_eq!(
            normalised("The  cell\twall,\nmostly."),
            "the cell wall mostly"
        );
        assert_eq!(normalised("don't"), normalised("dont"));
        assert_eq!(normalised("ﬁsh"), "fish", "a ligature is its letters");
    }

    #[test]
    fn digits_signs_and_symbols_keep_answers_apart() {
        let apart = [
            ("3.5", "35"),
            ("-5", "5"),
            ("1,000", "1000"),
            ("x+2", "x=2"),
            ("x-2", "x2"),
            ("10 - 5", "10 5"),
            ("x - 2", "x 2"),
            ("50%", "50"),
            ("2/3", "23"),
            ("a < b", "a > b"),
            ("well known", "wellknown"),
        ];
        for (one, other) in apart {
            assert_ne!(normalised(one), normalised(other), "{one:?} and {other:?}");
        }
        assert_eq!(
            normalised("x = 3.5."),
            "x = 3.5",
            "a sentence's full stop goes"
        );
        assert_eq!(normalised("It is 42!"), normalised("it is 42"));
        assert_eq!(normalised("x = 3, y = 4"), "x = 3 y = 4");
    }

    #[test]
    fn only_typed_answers_have_a_key_and_equal_text_an_equal_key() {
        let key = answer_key("text/plain; charset=utf-8", b"Osmosis.").unwrap();
        assert_eq!(key.len(), 32);
        assert_eq!(answer_key("text/plain", b"osmosis"), Some(key.clone()));
        assert_ne!(answer_key("text/plain", b"diffusion"), Some(key));
        assert_eq!(answer_key("image/png", b"osmosis"), None);
        assert_eq!(answer_key("text/html", b"osmosis"), None);
        let blank = answer_key("text/plain", b"").unwrap();
        assert_eq!(
            answer_key("TEXT/PLAIN", b"  .  "),
            Some(blank),
            "blank is a group too"
        );
        assert!(
            answer_key("text/plain", &[0xff, 0xfe, b'a']).is_some(),
            "never fails on bytes"
        );
    }
}
