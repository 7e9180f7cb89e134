//! MathML written as a line of text, since the service's markup holds no MathML:
//! a fraction as `a/b` (each side in brackets when it is more than one term), a
//! power as a superscript, an index as a subscript, a root as `√(…)`, a fenced
//! group in its fences; an annotation (a TeX source beside the MathML) is
//! dropped. Enough for the arithmetic that template items print (`3/11 of −11`).

use crate::xml::{Element, Node};

/// `math` as markup (`sup` and `sub` kept) and as plain words.
pub fn linear(math: &Element) -> (String, String) {
    let mut markup = String::new();
    let mut plain = String::new();
    write(math, &mut markup, &mut plain);
    (markup.trim().to_owned(), plain.trim().to_owned())
}

fn write(element: &Element, markup: &mut String, plain: &mut String) {
    let parts: Vec<&Element> = element.elements().collect();
    let push = |text: &str, markup: &mut String, plain: &mut String| {
        markup.push_str(&quick_xml::escape::escape(text));
        plain.push_str(text);
    };
    match element.name.as_str() {
        "annotation" | "annotation-xml" => {}
        "semantics" => {
            if let Some(first) = parts.first() {
                write(first, markup, plain);
            }
        }
        "mfrac" if parts.len() == 2 => {
            grouped(parts[0], markup, plain);
            push("/", markup, plain);
            grouped(parts[1], markup, plain);
        }
        "msup" | "msub" if parts.len() == 2 => {
            write(parts[0], markup, plain);
            let (tag, mark) = if element.name == "msup" {
                ("sup", "^")
            } else {
                ("sub", "_")
            };
            let (inner, words) = linear(parts[1]);
            markup.push_str(&format!("<{tag}>{inner}</{tag}>"));
            plain.push_str(&format!("{mark}{words}"));
        }
        "msqrt" => {
            push("√(", markup, plain);
            for part in &parts {
                write(part, markup, plain);
            }
            push(")", markup, plain);
        }
        "mfenced" => {
            push(element.attribute("open").unwrap_or("("), markup, plain);
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    push(
                        element.attribute("separators").unwrap_or(","),
                        markup,
                        plain,
                    );
                }
                write(part, markup, plain);
            }
            push(element.attribute("close").unwrap_or(")"), markup, plain);
        }
        "mo" => {
            let op = element.text();
            let op = op.trim();
            if matches!(op, "(" | ")" | "[" | "]" | "," | "") {
                push(op, markup, plain);
            } else {
                push(&format!(" {op} "), markup, plain);
            }
        }
        "mtr" => {
            for part in &parts {
                write(part, markup, plain);
            }
            push(" ", markup, plain);
        }
        _ if parts.is_empty() => push(element.text().trim(), markup, plain),
        _ => {
            for node in &element.children {
                match node {
                    Node::Element(child) => write(child, markup, plain),
                    Node::Text(text) if !text.trim().is_empty() => push(text.trim(), markup, plain),
                    Node::Text(_) => {}
                }
            }
        }
    }
}

/// A fraction's side: in brackets when it is more than one term.
fn grouped(part: &Element, markup: &mut String, plain: &mut String) {
    let (inner, words) = linear(part);
    let single = words
        .trim_start_matches('-')
        .chars()
        .all(|c| c.is_alphanumeric() || c == '.');
    if single {
        markup.push_str(&inner);
        plain.push_str(&words);
    } else {
        markup.push_str(&format!("({inner})"));
        plain.push_str(&format!("({words})"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (String, String) {
        linear(&crate::xml::parse(text.as_bytes(), "m.xml").unwrap())
    }

    #[test]
    fn fractions_powers_and_roots_read_as_a_line() {
        assert_eq!(
            read("<math><mfrac><mn>3</mn><mn>11</mn></mfrac></math>").1,
            "3/11"
        );
        assert_eq!(
            read(
                "<math><mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><mn>2</mn></mfrac></math>"
            )
            .1,
            "(a + 1)/2"
        );
        assert_eq!(
            read("<math><msup><mi>e</mi><mn>3</mn></msup></math>"),
            ("e<sup>3</sup>".into(), "e^3".into())
        );
        assert_eq!(
            read("<math><semantics><msqrt><mn>2</mn></msqrt><annotation>\\sqrt{2}</annotation></semantics></math>").1,
            "√(2)"
        );
        assert_eq!(
            read("<math><mi>x</mi><mo>&lt;</mo><mn>1</mn></math>").0,
            "x &lt; 1"
        );
    }
}
