//! Question markup is data clients wrote: it is shown (in the desktop's scoring
//! view, on the printable page) only after ammonia has kept the harmless part of it. No script, no event handler, no style that could reach
//! out, no link (an `<a href>`, even relative, would navigate the app's window away),
//! no relative or protocol-relative URL, and no URL but inline `data:` images, so
//! showing a question never runs code, fetches anything or leaves the app (the
//! window's CSP and its navigation guard are the second fences).

use std::collections::HashSet;

/// The markup as HTML that a page or the scoring view can insert.
pub fn sanitize(markup: &str) -> String {
    ammonia::Builder::default()
        .url_schemes(HashSet::from(["data"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .rm_tag_attributes("a", &["href"])
        .add_generic_attributes(["class"])
        .link_rel(None)
        .clean(markup)
        .to_string()
}

/// The picture a point question's places are marked on: the `data:` URL of the
/// image in its markup's `<div class="stage">` (qti's markup writer puts it
/// there), for the answer sheet to print again. `None` without one.
pub fn stage_picture(markup: &str) -> Option<String> {
    let stage = &markup[markup.find("<div class=\"stage\">")?..];
    let source = &stage[stage.find("<img src=\"")? + 10..];
    let url = &source[..source.find('"')?];
    url.starts_with("data:image/").then(|| url.to_owned())
}

/// Classes of markup elements that belong to on-screen delivery and have a paper
/// form of their own on the printable page: the choices (printed in the snapshot's
/// order, with circles) and the response hint ("Type your answer in the box.").
const DELIVERY_ONLY: [&str; 2] = ["choices", "response-hint"];

/// The markup of a question as paper shows it: without the elements of classes
/// `choices` and `response-hint`, which the page replaces with its own. Markup that
/// is not well-formed XHTML is kept whole (and still sanitised where it is shown).
pub fn for_paper(markup: &str) -> String {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(markup);
    let mut writer = quick_xml::Writer::new(Vec::new());
    // How deep inside a removed element we are (0: not inside one).
    let mut skipping = 0usize;
    loop {
        let event = match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(event) => event,
            Err(_) => return markup.to_owned(),
        };
        let delivery_only = |element: &quick_xml::events::BytesStart| {
            element
                .try_get_attribute("class")
                .ok()
                .flatten()
                .and_then(|class| class.unescape_value().ok().map(|v| v.into_owned()))
                .is_some_and(|class| class.split_whitespace().any(|c| DELIVERY_ONLY.contains(&c)))
        };
        match &event {
            Event::Start(element) if skipping > 0 || delivery_only(element) => {
                skipping += 1;
                continue;
            }
            Event::End(_) if skipping > 0 => {
                skipping -= 1;
                continue;
            }
            Event::Empty(element) if skipping > 0 || delivery_only(element) => continue,
            _ if skipping > 0 => continue,
            _ => {}
        }
        if writer.write_event(event).is_err() {
            return markup.to_owned();
        }
    }
    String::from_utf8(writer.into_inner()).unwrap_or_else(|_| markup.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_questions_picture_is_found_on_its_stage() {
        let markup = r#"<div class="question"><p>Mark it.</p><div class="stage"><img src="data:image/svg+xml;base64,PHN2Zy8+" alt="map"/></div></div>"#;
        assert_eq!(
            stage_picture(markup).as_deref(),
            Some("data:image/svg+xml;base64,PHN2Zy8+")
        );
        assert_eq!(
            stage_picture(r#"<img src="data:image/png;base64,AA"/>"#),
            None
        );
        assert_eq!(
            stage_picture(r#"<div class="stage"><img src="https://example.com/a.png"/></div>"#),
            None,
            "only an inline image"
        );
    }

    #[test]
    fn paper_leaves_out_what_delivery_on_screen_shows_itself() {
        let markup = r#"<div class="question" xmlns="http://www.w3.org/1999/xhtml">
  <p class="stem">Which is a <b>force</b>?</p>
  <ol class="choices"><li>Push</li><li>Mass</li></ol>
  <p class="response-hint">Type your answer in the box.</p>
  <ol><li>a list of the stem's own</li></ol>
</div>"#;
        let paper = for_paper(markup);
        assert!(paper.contains("Which is a <b>force</b>?"), "{paper}");
        assert!(paper.contains("a list of the stem's own"), "{paper}");
        for gone in ["Push", "Mass", "Type your answer"] {
            assert!(!paper.contains(gone), "{gone}: {paper}");
        }
        assert_eq!(for_paper("<p>not closed"), "<p>not closed");
    }

    #[test]
    fn no_link_can_take_the_window_anywhere() {
        let links = r##"<p>See <a href="/other">a</a>, <a href="//evil.example/x">b</a>,
            <a href="data:text/html,<script>x()</script>">c</a>, <a href="#top">d</a>
            <img src="/tracker.png"><img src="//evil.example/t.png"></p>"##;
        let clean = sanitize(links);
        for gone in ["href", "/other", "evil.example", "text/html", "tracker"] {
            assert!(!clean.contains(gone), "{gone} survived: {clean}");
        }
        assert!(
            clean.contains(">a</a>"),
            "the text of a link stays: {clean}"
        );
    }

    #[test]
    fn scripts_handlers_and_remote_urls_are_removed() {
        let hostile = r#"<div class="question"><p onclick="steal()">Explain <b>osmosis</b>.</p>
            <script>steal()</script><img src="https://evil.example/track.png">
            <img src="data:image/png;base64,iVBORw0KGgo="><a href="javascript:steal()">x</a>
            <iframe src="https://evil.example"></iframe><style>body{background:url(https://evil.example)}</style></div>"#;
        let clean = sanitize(hostile);
        assert!(clean.contains(r#"<div class="question">"#), "{clean}");
        assert!(clean.contains("Explain <b>osmosis</b>."), "{clean}");
        assert!(clean.contains("data:image/png;base64"), "{clean}");
        for gone in [
            "script",
            "onclick",
            "evil.example",
            "javascript:",
            "iframe",
            "<style",
        ] {
            assert!(!clean.contains(gone), "{gone} survived: {clean}");
        }
    }
}
