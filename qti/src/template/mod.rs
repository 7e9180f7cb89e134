//! Template items (QTI's `templateDeclaration` and `templateProcessing`): items
//! whose numbers, words or keys are drawn afresh for each delivery. An import
//! keeps the template (`Item::template`, its images inlined: [`kept`]) and reads
//! one draw of it as the item it shows; a snapshot draws its own with its seed
//! (`instantiate`, in `reading`), so that one snapshot prints and scores one
//! instance. A draw ([`draw`]) is an ordinary item: its variables drawn, its
//! printed variables written, its keys set.

mod apply;
mod expression;
mod numeric;
mod processing;
mod source;
mod value;

use crate::xml::Element;

pub use source::kept;

/// At most this many template items are drawn from one package, each of at most
/// [`MOST_TEMPLATE_ELEMENTS`] elements: with a draw's own bound
/// (`expression::MOST_STEPS`) and the import's checked draws, what a hostile
/// package can make an import compute stays small.
pub const MOST_TEMPLATE_ITEMS: usize = 200;
pub const MOST_TEMPLATE_ELEMENTS: usize = 5_000;

/// Why the `count`th template item of a package, `item`, is not read; `None`
/// when it is.
pub fn too_many(count: usize, item: &Element) -> Option<String> {
    if count > MOST_TEMPLATE_ITEMS {
        return Some(format!(
            "a package's first {MOST_TEMPLATE_ITEMS} template items are imported, and this is one more"
        ));
    }
    let elements = item.descendants().len();
    (elements > MOST_TEMPLATE_ELEMENTS).then(|| {
        format!("a template item of {elements} elements (a template is drawn from at most {MOST_TEMPLATE_ELEMENTS})")
    })
}

pub fn is_template(item: &Element) -> bool {
    item.child("templateDeclaration").is_some() || item.child("templateProcessing").is_some()
}

/// Template item `item` drawn with `seed`: the ordinary item it gives, and its
/// variables' values `(name, value)` in the order declared.
pub fn draw(item: &Element, seed: u64) -> Result<(Element, Vec<(String, String)>), String> {
    let drawn = processing::draw(item, seed).map_err(|e| format!("its template: {e}"))?;
    let values = drawn
        .variables
        .iter()
        .map(|(name, value)| (name.clone(), value.written_with("; ")))
        .collect();
    Ok((apply::apply(item, &drawn)?, values))
}
