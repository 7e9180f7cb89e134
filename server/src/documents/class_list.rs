//! A group's class list (docs/rosters.md "Class lists"): its members by family
//! name, with a box to tick and a line to sign, for the room on the day of a paper
//! sitting; from a minijinja template (`class_list.html`), escaped by the engine.

use minijinja::{context, Environment};

use crate::model::people::ClassList;

const TEMPLATE: &str = include_str!("class_list.html");

/// The class list of group `group` as an HTML page; `printed` is the date it says.
pub fn render(group: i32, list: &ClassList, printed: &str) -> Result<String, minijinja::Error> {
    let members: Vec<_> = list
        .members
        .iter()
        .map(|m| {
            context! {
                username => m.username,
                first_name => m.first_name,
                last_name => m.last_name,
                email => m.email,
            }
        })
        .collect();
    let mut environment = Environment::new();
    environment.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    environment.add_template("class_list.html", TEMPLATE)?;
    environment
        .get_template("class_list.html")?
        .render(context! {
            group,
            name => list.name,
            // A roster names two classes of one title by their code already.
            code => list.code.as_deref().filter(|code| !list.name.contains(code)),
            description => list.description,
            members,
            printed,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::people::ClassMember;

    fn member(username: &str, first: &str, last: &str) -> ClassMember {
        ClassMember {
            username: username.into(),
            first_name: Some(first.into()),
            last_name: Some(last.into()),
            email: None,
        }
    }

    #[test]
    fn members_are_listed_in_order_and_names_are_escaped() {
        let list = ClassList {
            name: "Biology <10A>".into(),
            description: None,
            code: Some("BIO-10A".into()),
            members: vec![
                member("amara", "Amara", "Nwosu \"Mimi\""),
                member("evil", "<script>alert(1)</script>", "O'Brien & Co"),
            ],
        };
        let html = render(7, &list, "27 November 2026").unwrap();
        assert!(html.contains("Biology &lt;10A&gt;"));
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script>alert"));
        assert!(html.contains("O&#x27;Brien &amp; Co"), "{html}");
        assert!(html.contains("2 participants · printed 27 November 2026"));
        let amara = html.find("data-username=\"amara\"").unwrap();
        let evil = html.find("data-username=\"evil\"").unwrap();
        assert!(amara < evil, "in the order given");
        assert!(html.contains("(BIO-10A)"));
        let named = ClassList {
            name: "Biology (BIO-10A)".into(),
            ..list
        };
        let html = render(7, &named, "27 November 2026").unwrap();
        assert_eq!(
            html.matches("BIO-10A").count(),
            2,
            "the title's and the page's name: {html}"
        );
    }

    #[test]
    fn an_empty_group_says_so() {
        let list = ClassList {
            name: "Choir".into(),
            description: Some("Tuesdays".into()),
            code: None,
            members: vec![],
        };
        let html = render(3, &list, "1 May 2027").unwrap();
        assert!(html.contains("This group has no members."));
        assert!(html.contains("0 participants"));
        assert!(!html.contains("<table"));
    }
}
