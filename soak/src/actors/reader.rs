//! Readers paging the Results feed to its end and starting again: one in JSON
//! (following `odata.nextLink`), one in Atom (following `<link rel="next">`),
//! a page every 200 to 500 ms.

use std::sync::Arc;

use super::Load;
use crate::client::Person;

pub async fn run(load: Arc<Load>, me: Person, atom: bool) {
    let first = if atom {
        "Results?$format=atom"
    } else {
        "Results"
    };
    let mut next = first.to_owned();
    while !load.stopping() {
        let route = if atom {
            "reader: Results page (Atom)"
        } else {
            "reader: Results page (JSON)"
        };
        let page = me.get(route, &next, &[200]).await;
        next = if atom {
            atom_next(&page.body)
        } else {
            page.json()["odata.nextLink"].as_str().map(str::to_owned)
        }
        .unwrap_or_else(|| first.to_owned());
        load.pause(200, 500).await;
    }
}

/// The href of a feed's `<link rel="next" href="..."/>`.
fn atom_next(xml: &str) -> Option<String> {
    let at = xml.find("rel=\"next\"")?;
    let tag_start = xml[..at].rfind('<')?;
    let tag = &xml[tag_start..];
    let tag = &tag[..tag.find('>')?];
    let href = tag.split("href=\"").nth(1)?;
    Some(href[..href.find('"')?].replace("&amp;", "&"))
}

#[cfg(test)]
mod tests {
    use super::atom_next;

    #[test]
    fn the_next_link_is_read_from_either_attribute_order() {
        let feed = r#"<feed><link rel="self" href="Results"/><link rel="next" href="http://h/Results?$skiptoken=5&amp;x=1"/></feed>"#;
        assert_eq!(
            atom_next(feed).as_deref(),
            Some("http://h/Results?$skiptoken=5&x=1")
        );
        let swapped = r#"<feed><link href="http://h/R?$skiptoken=9" rel="next"/></feed>"#;
        assert_eq!(
            atom_next(swapped).as_deref(),
            Some("http://h/R?$skiptoken=9")
        );
        assert_eq!(atom_next("<feed/>"), None);
    }
}
