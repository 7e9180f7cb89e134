//! Question markup is data from the server: it is shown only after ammonia has kept
//! the harmless part of it. No script, no event handler, no style that could reach
//! out, and no URL but inline `data:` images, so showing a question never runs code
//! or fetches anything (the window's CSP is the second fence).

use std::collections::HashSet;

/// The markup as HTML the scoring view can insert.
pub fn sanitize(markup: &str) -> String {
    ammonia::Builder::default()
        .url_schemes(HashSet::from(["data"]))
        .add_generic_attributes(["class"])
        .link_rel(Some("noopener noreferrer"))
        .clean(markup)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

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
