//! The window shows the app and nothing else: a navigation anywhere but the app's own
//! pages (a link in question markup that slipped past the sanitiser, a page that
//! redirects) is refused, so server data can never turn the window into a browser
//! on another site with the app's commands in reach.

use tauri::plugin::TauriPlugin;
use tauri::{Manager, Runtime, Url};

use crate::print::PrintPages;

/// Whether the window may show `url`: the app's own pages, as each platform serves
/// them (`tauri://localhost` on Linux and macOS, `http(s)://tauri.localhost` on
/// Windows).
pub fn allowed(url: &Url) -> bool {
    match (url.scheme(), url.host_str()) {
        ("tauri", Some("localhost")) => true,
        ("http" | "https", Some("tauri.localhost")) => url.port().is_none(),
        _ => false,
    }
}

/// The plugin that applies [`allowed`] to every navigation of every window.
pub fn guard<R: Runtime>() -> TauriPlugin<R> {
    tauri::plugin::Builder::new("navigation-guard")
        .on_navigation(|webview, url| {
            // A print window shows the one signed link it was opened with.
            let allowed = allowed(url)
                || webview
                    .try_state::<PrintPages>()
                    .is_some_and(|pages| pages.allows(webview.label(), url));
            if !allowed {
                tracing::warn!(%url, "navigation away from the app refused");
            }
            allowed
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_apps_own_pages_may_be_shown() {
        for url in [
            "tauri://localhost/",
            "tauri://localhost/index.html#queue",
            "http://tauri.localhost/",
            "https://tauri.localhost/assets/app.js",
        ] {
            assert!(allowed(&Url::parse(url).unwrap()), "{url}");
        }
        for url in [
            "https://evil.example/",
            "http://127.0.0.1:8080/deliveryodata/1/",
            "http://tauri.localhost:8080/",
            "http://tauri.localhost.evil.example/",
            "file:///etc/passwd",
            "data:text/html,<script>x()</script>",
            "javascript:alert(1)",
            "tauri://evil.example/",
        ] {
            assert!(!allowed(&Url::parse(url).unwrap()), "{url}");
        }
    }
}
