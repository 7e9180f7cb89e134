//! How the web view draws: with WebKitGTK's compositing (OpenGL) on a machine with a
//! GPU, and without it where OpenGL would be Mesa's software renderer (virtual
//! desktops, remote sessions, machines without a render node). There, compositing
//! every frame in software made the first scan of a session take 190–260 ms to
//! appear against 90–110 ms without it, and every later open about 20 ms more
//! (docs/benchmarks.md, "Drawing without a GPU").
//!
//! `SCOREDESK_RENDERING` chooses: `gpu`, `software`, or `auto` (the default). A
//! `WEBKIT_DISABLE_COMPOSITING_MODE` the user set is left alone.

use std::path::Path;

/// What `SCOREDESK_RENDERING` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    Auto,
    Gpu,
    Software,
}

impl Requested {
    /// Unknown words count as `auto`: a typo must not stop the app from starting.
    pub fn parse(value: Option<&str>) -> Self {
        match value.map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("gpu") => Self::Gpu,
            Some(v) if v.eq_ignore_ascii_case("software") => Self::Software,
            _ => Self::Auto,
        }
    }
}

/// Whether to draw without compositing: asked for, or `auto` on a machine whose
/// OpenGL can only be software (no DRM render node, or Mesa told to use software).
pub fn without_compositing(
    requested: Requested,
    has_render_node: bool,
    gl_forced_software: bool,
) -> bool {
    match requested {
        Requested::Gpu => false,
        Requested::Software => true,
        Requested::Auto => !has_render_node || gl_forced_software,
    }
}

/// Whether `/dev/dri` holds a render node (`renderD128`, …): a GPU the web view can use.
fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri)
        .map(|entries| {
            entries
                .flatten()
                .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false)
}

/// Chooses before the first web view exists (WebKitGTK reads the variable when it
/// creates one). Called at the very start of `run`, while the process has one thread.
pub fn choose() {
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_some() {
        tracing::info!("rendering: WEBKIT_DISABLE_COMPOSITING_MODE set by the user");
        return;
    }
    let requested = Requested::parse(std::env::var("SCOREDESK_RENDERING").ok().as_deref());
    let forced = std::env::var("LIBGL_ALWAYS_SOFTWARE").is_ok_and(|v| v != "0" && !v.is_empty());
    let software = without_compositing(requested, has_render_node(Path::new("/dev/dri")), forced);
    if software && cfg!(target_os = "linux") {
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
    tracing::info!(?requested, software, "rendering chosen");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_draws_without_compositing_only_where_opengl_is_software() {
        assert!(without_compositing(Requested::Auto, false, false));
        assert!(without_compositing(Requested::Auto, true, true));
        assert!(!without_compositing(Requested::Auto, true, false));
    }

    #[test]
    fn an_explicit_choice_wins() {
        assert!(!without_compositing(Requested::Gpu, false, true));
        assert!(without_compositing(Requested::Software, true, false));
    }

    #[test]
    fn the_variable_is_read_leniently() {
        assert_eq!(Requested::parse(Some(" GPU ")), Requested::Gpu);
        assert_eq!(Requested::parse(Some("software")), Requested::Software);
        assert_eq!(Requested::parse(Some("fast")), Requested::Auto);
        assert_eq!(Requested::parse(None), Requested::Auto);
    }

    #[test]
    fn a_render_node_is_found_by_name() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("card0"), b"").unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("renderD128"), b"").unwrap();
        assert!(has_render_node(dir.path()));
        assert!(!has_render_node(&dir.path().join("missing")));
    }
}
