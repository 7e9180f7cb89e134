//! A template item made into the ordinary item one draw gives: its declarations
//! and processing gone, each printed variable written as its value, MathML's
//! names of math variables as their values, the template's shown-or-hidden parts
//! decided, the correct responses it set written into their declarations, and
//! the response processing's reads of template variables as the values they hold.

use super::processing::Drawn;
use super::value::{formatted, Value};
use crate::xml::{Element, Node};

pub fn apply(item: &Element, drawn: &Drawn) -> Result<Element, String> {
    let mut out = Element {
        name: item.name.clone(),
        attributes: item.attributes.clone(),
        children: Vec::with_capacity(item.children.len()),
    };
    for node in &item.children {
        let Node::Element(child) = node else {
            out.children.push(node.clone());
            continue;
        };
        match child.name.as_str() {
            "templateDeclaration" | "templateProcessing" => {}
            "responseDeclaration" => out.children.push(Node::Element(declared(child, drawn))),
            "responseProcessing" => out.children.push(Node::Element(valued(child, drawn))),
            _ => out.children.extend(shown(child, drawn)?),
        }
    }
    Ok(out)
}

/// A response declaration with the correct response the draw set, if it set one.
fn declared(declaration: &Element, drawn: &Drawn) -> Element {
    let Some(value) = declaration
        .attribute("identifier")
        .and_then(|id| drawn.correct.get(id))
    else {
        return declaration.clone();
    };
    let mut out = declaration.clone();
    out.children
        .retain(|n| !matches!(n, Node::Element(e) if e.name == "correctResponse"));
    if !value.is_null() {
        let values = value
            .members()
            .iter()
            .map(|member| Node::Element(element("value", Vec::new(), member.written())))
            .collect();
        out.children.insert(
            0,
            Node::Element(Element {
                name: "correctResponse".into(),
                attributes: Vec::new(),
                children: values,
            }),
        );
    }
    out
}

/// Response processing with each read of a template variable replaced by its value.
fn valued(element: &Element, drawn: &Drawn) -> Element {
    let children = element
        .children
        .iter()
        .map(|node| match node {
            Node::Element(e) if e.name == "variable" => {
                match e
                    .attribute("identifier")
                    .and_then(|id| drawn.value(id).map(|v| (id, v)))
                {
                    Some((id, value)) => Node::Element(as_expression(value, drawn.base_type(id))),
                    None => node.clone(),
                }
            }
            Node::Element(e) => Node::Element(valued(e, drawn)),
            Node::Text(_) => node.clone(),
        })
        .collect();
    Element {
        name: element.name.clone(),
        attributes: element.attributes.clone(),
        children,
    }
}

fn as_expression(value: &Value, base_type: &str) -> Element {
    let base = |v: &Value| element("baseValue", vec![("baseType", base_type)], v.written());
    match value {
        Value::Null => element("null", Vec::new(), String::new()),
        Value::List(list) => Element {
            name: "ordered".into(),
            attributes: Vec::new(),
            children: list.iter().map(|v| Node::Element(base(v))).collect(),
        },
        single => base(single),
    }
}

/// The body's nodes for `element` after the draw: nothing where the template
/// hides it, its children alone for a template block, its value for a printed
/// variable.
fn shown(element: &Element, drawn: &Drawn) -> Result<Vec<Node>, String> {
    match element.name.as_str() {
        "printedVariable" => {
            let identifier = element.attribute("identifier").unwrap_or("");
            let Some(value) = drawn.value(identifier) else {
                // An outcome's value: a paper has none to print.
                return Ok(Vec::new());
            };
            let text = formatted(value, element.attribute("format"))
                .map_err(|e| format!("the printed variable {identifier}: {e}"))?;
            return Ok(vec![Node::Text(text)]);
        }
        "mi" | "ci" => {
            let name = element.text();
            if let Some(value) = drawn
                .math
                .get(name.trim())
                .and_then(|_| drawn.value(name.trim()))
            {
                let number = matches!(value, Value::Integer(_) | Value::Float(_));
                let tag = if number { "mn" } else { "mi" };
                return Ok(vec![Node::Element(element_like(
                    element,
                    tag,
                    value.written_with(", "),
                ))]);
            }
        }
        _ => {}
    }
    if let Some(variable) = element.attribute("templateIdentifier") {
        if !visible(element, variable, drawn) {
            return Ok(Vec::new());
        }
    }
    let mut children = Vec::with_capacity(element.children.len());
    for node in &element.children {
        match node {
            Node::Element(child) => children.extend(shown(child, drawn)?),
            Node::Text(_) => children.push(node.clone()),
        }
    }
    if matches!(element.name.as_str(), "templateInline" | "templateBlock") {
        return Ok(children);
    }
    // A choice the template shows or hides loses the attributes that say so
    // (a feedback's `showHide` is its outcome's, and stays).
    let template_part = element.attribute("templateIdentifier").is_some();
    Ok(vec![Node::Element(Element {
        name: element.name.clone(),
        attributes: element
            .attributes
            .iter()
            .filter(|(n, _)| !(template_part && (n == "templateIdentifier" || n == "showHide")))
            .cloned()
            .collect(),
        children,
    })])
}

/// Whether a part the template shows or hides is shown: its variable holds
/// (or contains) its identifier, unless it is one that hides.
fn visible(element: &Element, variable: &str, drawn: &Drawn) -> bool {
    let identifier = element.attribute("identifier").unwrap_or("");
    let holds = drawn
        .value(variable)
        .is_some_and(|v| v.members().iter().any(|m| m.written() == identifier));
    holds != (element.attribute("showHide") == Some("hide"))
}

fn element(name: &str, attributes: Vec<(&str, &str)>, text: String) -> Element {
    Element {
        name: name.into(),
        attributes: attributes
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        children: vec![Node::Text(text)],
    }
}

fn element_like(like: &Element, name: &str, text: String) -> Element {
    Element {
        name: name.into(),
        attributes: like.attributes.clone(),
        children: vec![Node::Text(text)],
    }
}
