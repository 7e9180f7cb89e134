//! Names: QTI 3.0's element and attribute names onto QTI 2.x's (so one reader serves
//! both), and the package's paths (hrefs resolved against the file that holds them,
//! never leaving the package).

use percent_encoding::percent_decode_str;

/// `qti-choice-interaction` → `choiceInteraction`: QTI 3.0 spells QTI 2.x's
/// camel-case names in kebab case with a `qti-` prefix. Other names stay as they are.
pub fn element_name(local: &str) -> String {
    match local.strip_prefix("qti-") {
        Some(rest) => camel_case(rest),
        None => local.to_owned(),
    }
}

/// `max-choices` → `maxChoices`, for the attributes of QTI 3.0's own elements.
pub fn camel_case(kebab: &str) -> String {
    let mut out = String::with_capacity(kebab.len());
    let mut upper = false;
    for c in kebab.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Why an entry name or an href cannot name a member of the package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// It climbs above the package's root (`../../etc/passwd`) or is absolute.
    LeavesPackage,
    /// It is a URL of another scheme (`http://`, `file:`).
    External,
    /// It holds a backslash, a NUL or is empty.
    Malformed,
}

impl PathProblem {
    pub fn describe(&self) -> &'static str {
        match self {
            PathProblem::LeavesPackage => "the path leaves the package",
            PathProblem::External => {
                "it refers outside the package; only files in the package are read"
            }
            PathProblem::Malformed => "the path is malformed (empty, or with a backslash or NUL)",
        }
    }
}

/// A zip entry's name as a path inside the package, or why it is not one.
pub fn entry_path(name: &str) -> Result<String, PathProblem> {
    if name.starts_with('/') || has_scheme_or_drive(name) {
        return Err(PathProblem::LeavesPackage);
    }
    normalise("", name)
}

/// `href` (as written in `base`, a member's path) as a member's path.
pub fn resolve(base: &str, href: &str) -> Result<String, PathProblem> {
    let href = href.trim();
    let href = href.split(['#', '?']).next().unwrap_or_default();
    if has_scheme_or_drive(href) {
        return Err(PathProblem::External);
    }
    if href.starts_with('/') {
        return Err(PathProblem::LeavesPackage);
    }
    let decoded = percent_decode_str(href)
        .decode_utf8()
        .map_err(|_| PathProblem::Malformed)?;
    let dir = base.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
    normalise(dir, &decoded)
}

fn has_scheme_or_drive(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    !scheme.is_empty()
        && scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn normalise(dir: &str, relative: &str) -> Result<String, PathProblem> {
    if relative.is_empty() || relative.contains(['\\', '\0']) {
        return Err(PathProblem::Malformed);
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or(PathProblem::LeavesPackage)?;
            }
            part => parts.push(part),
        }
    }
    if parts.is_empty() {
        return Err(PathProblem::Malformed);
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qti_3_names_read_as_qti_2_names() {
        assert_eq!(element_name("qti-choice-interaction"), "choiceInteraction");
        assert_eq!(element_name("qti-value"), "value");
        assert_eq!(element_name("choiceInteraction"), "choiceInteraction");
        assert_eq!(element_name("img"), "img");
        assert_eq!(camel_case("response-identifier"), "responseIdentifier");
    }

    #[test]
    fn an_href_resolves_against_the_file_that_holds_it() {
        assert_eq!(
            resolve("items/q1.xml", "../img/a.png"),
            Ok("img/a.png".into())
        );
        assert_eq!(
            resolve("items/q1.xml", "a%20b.png"),
            Ok("items/a b.png".into())
        );
        assert_eq!(
            resolve("imsmanifest.xml", "./items/q1.xml#x"),
            Ok("items/q1.xml".into())
        );
    }

    #[test]
    fn an_href_that_leaves_the_package_is_refused() {
        assert_eq!(
            resolve("items/q1.xml", "../../etc/passwd"),
            Err(PathProblem::LeavesPackage)
        );
        assert_eq!(
            resolve("items/q1.xml", "/etc/passwd"),
            Err(PathProblem::LeavesPackage)
        );
        assert_eq!(
            resolve("q.xml", "http://example.com/a.png"),
            Err(PathProblem::External)
        );
        assert_eq!(
            resolve("q.xml", "file:///etc/passwd"),
            Err(PathProblem::External)
        );
        assert_eq!(resolve("q.xml", "..\\..\\x"), Err(PathProblem::Malformed));
        assert_eq!(
            resolve("q.xml", "%2e%2e/%2e%2e/x"),
            Err(PathProblem::LeavesPackage)
        );
    }

    #[test]
    fn an_entry_name_that_leaves_the_package_is_refused() {
        assert_eq!(entry_path("a/../../b"), Err(PathProblem::LeavesPackage));
        assert_eq!(entry_path("/abs"), Err(PathProblem::LeavesPackage));
        assert_eq!(entry_path("C:/x"), Err(PathProblem::LeavesPackage));
        assert_eq!(entry_path("a\\b"), Err(PathProblem::Malformed));
        assert_eq!(entry_path("./a/b.xml"), Ok("a/b.xml".into()));
    }
}
