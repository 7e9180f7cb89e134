//! Question markup is data from the server: it is shown only after ammonia has kept
//! the harmless part of it. No script, no event handler, no style that could reach
//! out, no link (an `<a href>`, even relative, would navigate the app's window away),
//! no relative or protocol-relative URL, and no URL but inline `data:` images, so
//! showing a question never runs code, fetches anything or leaves the app (the
//! window's CSP and its navigation guard are the second fences).

use std::collections::HashSet;

/// The markup as HTML the scoring view can insert.
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

#[cfg(test)]
mod tests {
    use super::*;

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
