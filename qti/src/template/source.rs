//! A template item kept as XML until a snapshot draws it: the element tree
//! written back (local names, so that the reader reads it as it read the
//! package), its images already inlined as `data:` URLs since the package is gone
//! by then.

use quick_xml::escape::escape;

use crate::error::PackageError;
use crate::images::Images;
use crate::xml::{Element, Node};

/// `item` as XML, each image it shows inlined (`file` is where it was read).
pub fn kept(item: &Element, file: &str, images: &mut Images<'_>) -> Result<String, PackageError> {
    let inlined = inline_images(item, file, images)?;
    let mut out = String::new();
    write(&inlined, &mut out);
    Ok(out)
}

fn inline_images(
    element: &Element,
    file: &str,
    images: &mut Images<'_>,
) -> Result<Element, PackageError> {
    let image_attribute = match element.name.as_str() {
        "img" => Some("src"),
        "object"
            if element
                .attribute("type")
                .is_some_and(|t| t.trim().starts_with("image/")) =>
        {
            Some("data")
        }
        _ => None,
    };
    let mut attributes = element.attributes.clone();
    if let Some(name) = image_attribute {
        for (attribute, value) in attributes.iter_mut() {
            if attribute == name {
                let what = format!("{} {name}", element.name);
                *value = images.data_url(file, &what, value)?;
            }
        }
    }
    let children = element
        .children
        .iter()
        .map(|node| match node {
            Node::Element(child) => inline_images(child, file, images).map(Node::Element),
            Node::Text(_) => Ok(node.clone()),
        })
        .collect::<Result<_, _>>()?;
    Ok(Element {
        name: element.name.clone(),
        attributes,
        children,
    })
}

fn write(element: &Element, out: &mut String) {
    out.push('<');
    out.push_str(&element.name);
    for (name, value) in &element.attributes {
        // `xml:lang` was read as `lang`; it is written back as it was.
        let name = if name == "lang" { "xml:lang" } else { name };
        out.push_str(&format!(" {name}=\"{}\"", escape(value.as_str())));
    }
    if element.children.is_empty() {
        out.push_str("/>");
        return;
    }
    out.push('>');
    for node in &element.children {
        match node {
            Node::Element(child) => write(child, out),
            Node::Text(text) => out.push_str(&escape(text.as_str())),
        }
    }
    out.push_str(&format!("</{}>", element.name));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_written_back_reads_as_it_was() {
        let text = r#"<assessmentItem identifier="a&amp;b" xml:lang="en"><itemBody><p>1 &lt; 2 &amp; "x"</p><br/></itemBody></assessmentItem>"#;
        let item = crate::xml::parse(text.as_bytes(), "item.xml").unwrap();
        let mut out = String::new();
        write(&item, &mut out);
        assert_eq!(
            crate::xml::parse(out.as_bytes(), "again.xml").unwrap(),
            item
        );
        assert!(out.contains("xml:lang=\"en\""), "{out}");
    }
}
