//! Text in the XML 1.0 the server writes (Atom feeds, snapshot documents), so
//! that any conforming parser reads back what was stored. quick-xml escapes the
//! markup characters only; this also keeps out what XML 1.0 cannot carry at all
//! (C0 controls but tab, LF and CR, and U+FFFE and U+FFFF, written as U+FFFD: a
//! strict parser refuses the whole document over one), and writes as character
//! references what a parser would change: a CR in text (read as LF), and tab, LF
//! and CR in an attribute (read as spaces).

use std::borrow::Cow;

/// Whether `c` may appear in an XML 1.0 document (its production `Char`).
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// `text` escaped for element content.
pub fn escape_text(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// `text` escaped for an attribute value in double quotes.
pub fn escape_attribute(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

fn escape(text: &str, attribute: bool) -> Cow<'_, str> {
    let special = |c: char| {
        matches!(c, '<' | '>' | '&' | '\r')
            || (attribute && matches!(c, '"' | '\'' | '\t' | '\n'))
            || !is_xml_char(c)
    };
    // Most text is plain, and a byte at a time finds that more cheaply than a
    // char at a time (7.5 % of an Atom page's CPU was this look, docs/benchmarks.md):
    // markup and control characters are ASCII, and the only others XML cannot
    // carry, U+FFFE and U+FFFF, start with the byte 0xEF, which sends the text to
    // the char-by-char look.
    let plain_byte = |b: u8| match b {
        b'<' | b'>' | b'&' | b'\r' | 0xEF => false,
        b'"' | b'\'' | b'\t' | b'\n' => !attribute,
        0..=0x1F => false,
        _ => true,
    };
    if text.bytes().all(plain_byte) || !text.chars().any(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => out.push_str("&#13;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            c if !is_xml_char(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_as_it_is() {
        assert!(matches!(
            escape_text("Plain, with é and 😀"),
            Cow::Borrowed(_)
        ));
        // Starts with the byte 0xEF, and is a character XML carries.
        assert!(matches!(
            escape_attribute("\u{FEFF} and \u{FFFD}"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(escape_text("tab\tand\nline"), Cow::Borrowed(_)));
    }

    #[test]
    fn what_xml_cannot_carry_or_would_change_is_written_so_that_it_reads_back() {
        assert_eq!(escape_text("a<b & c>d"), "a&lt;b &amp; c&gt;d");
        assert_eq!(escape_text("line\r\nend\ttab"), "line&#13;\nend\ttab");
        assert_eq!(
            escape_text("bell\u{7} nul\u{0} \u{FFFE}"),
            "bell\u{FFFD} nul\u{FFFD} \u{FFFD}"
        );
        assert_eq!(
            escape_attribute("say \"hi\"\n\t'x'"),
            "say &quot;hi&quot;&#10;&#9;&apos;x&apos;"
        );
        assert_eq!(
            escape_text("quotes \" ' stay in text"),
            "quotes \" ' stay in text"
        );
    }
}
