//! What a participant and a group written through the feeds must be (our
//! extension, docs/odata.md "Participants and Groups"): the same bounds as a
//! roster's (model::roster), checked per property so a refusal names it.

/// A group and its members, as its class list prints them (docs/rosters.md
/// "Class lists").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassList {
    pub name: String,
    pub description: Option<String>,
    /// The class code a roster gave, if any.
    pub code: Option<String>,
    /// By family name, given name, username.
    pub members: Vec<ClassMember>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassMember {
    pub username: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
}

/// The most characters of any name, e-mail or description, as in a roster.
pub const MOST_CHARS: usize = 256;

/// A text property: trimmed; empty is absent; at most [`MOST_CHARS`] characters
/// and no control characters. `Err` names the property and what is wrong.
pub fn text(entity: &str, property: &str, value: Option<&str>) -> Result<Option<String>, String> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let chars = value.chars().count();
    if chars > MOST_CHARS {
        return Err(format!(
            "{entity}.{property} is {chars} characters; at most {MOST_CHARS} are allowed"
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(format!(
            "{entity}.{property} holds a control character (a line break or a tab)"
        ));
    }
    Ok(Some(value.to_owned()))
}

/// A required text property.
pub fn required(
    entity: &str,
    property: &str,
    value: Option<&str>,
    what: &str,
) -> Result<String, String> {
    text(entity, property, value)?.ok_or_else(|| format!("{entity}.{property} is required: {what}"))
}

/// An e-mail address, if given: one `@` with something on each side, no spaces.
pub fn email(value: Option<&str>) -> Result<Option<String>, String> {
    let email = text("Participant", "PrimaryEmail", value)?;
    if let Some(address) = &email {
        let plausible = matches!(address.split_once('@'), Some((user, domain))
            if !user.is_empty() && !domain.is_empty() && !domain.contains('@'))
            && !address.contains(char::is_whitespace);
        if !plausible {
            return Err(format!(
                "Participant.PrimaryEmail is \"{address}\", which is not an e-mail address"
            ));
        }
    }
    Ok(email)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_bounded_and_named_when_refused() {
        assert_eq!(text("Group", "Name", Some("  9B ")), Ok(Some("9B".into())));
        assert_eq!(text("Group", "Name", Some("   ")), Ok(None));
        let long = "x".repeat(MOST_CHARS + 1);
        assert!(text("Group", "Name", Some(&long))
            .unwrap_err()
            .contains("Group.Name is 257"));
        assert!(text("Participant", "LastName", Some("a\nb"))
            .unwrap_err()
            .contains("LastName"));
        assert!(required("Group", "Name", None, "its name")
            .unwrap_err()
            .contains("required"));
    }

    #[test]
    fn an_email_needs_one_at_sign_and_no_spaces() {
        assert_eq!(
            email(Some("zoe@school.example")),
            Ok(Some("zoe@school.example".into()))
        );
        assert_eq!(email(None), Ok(None));
        for bad in ["zoe", "@school", "zoe@", "a@b@c", "zo e@school"] {
            assert!(email(Some(bad)).is_err(), "{bad}");
        }
    }
}
