//! What an item asks and how it is scored: its one interaction, the response
//! declaration that interaction answers, the response processing (the standard
//! templates `match_correct` and `map_response`, or custom rules of the same shape)
//! and the maximum score. An item that does not fit is skipped, with the reason.

mod associate;
mod blanks;
mod choice;
mod matching;
mod max_score;
mod number;
mod picked;
mod points;
mod rules;
mod text;

use crate::item::Response;
use crate::xml::Element;
use associate::associate;
use blanks::blanks;
use choice::choice;
use matching::matching;
use max_score::max_score;
use points::points;
use rules::rule_of;
use text::text;

/// The interactions imported, each onto one kind of question. An inline choice
/// (a gap with a list to pick from) and a hottext (words of a passage to pick)
/// are choices like a choice interaction's: the paper lists them as lettered
/// choices with bubbles, the upload names them by identifier. A hotspot's areas
/// are choices too, lettered on its picture. A slider is a
/// numeric entry: the number is written, on paper as in an upload. A match, a gap
/// match and an order are rows that each pick one of their options. An associate
/// is a multiple response over its candidate pairs. A graphic order and a
/// graphic associate are an order and an associate over the areas of their
/// picture, lettered on it as a hotspot's are; a graphic gap match pairs each
/// area with one of the pictures (or words) to place, a matching's rows. A select
/// point and a position object are points on a picture, scored by its areas.
pub const SUPPORTED: [&str; 18] = [
    "choiceInteraction",
    "hotspotInteraction",
    "graphicOrderInteraction",
    "graphicAssociateInteraction",
    "graphicGapMatchInteraction",
    "associateInteraction",
    "inlineChoiceInteraction",
    "hottextInteraction",
    "matchInteraction",
    "gapMatchInteraction",
    "orderInteraction",
    "extendedTextInteraction",
    "textEntryInteraction",
    "sliderInteraction",
    "uploadInteraction",
    "drawingInteraction",
    "selectPointInteraction",
    "positionObjectInteraction",
];

/// The item's interaction and scoring, or why the item cannot be imported.
pub struct Reading {
    pub response: Response,
    pub max_score: i32,
    pub notes: Vec<String>,
}

/// `picture_size`: a picture's size in its own pixels, from its `<object>` (its
/// width and height, else the image's own), `None` when not known.
pub fn read(
    item: &Element,
    body: &Element,
    picture_size: &mut dyn FnMut(&Element) -> Option<(f64, f64)>,
) -> Result<Reading, String> {
    if item.attribute("adaptive") == Some("true") {
        return Err("adaptive items (which change as they are answered) are not imported".into());
    }
    let interactions: Vec<&Element> = body
        .descendants()
        .into_iter()
        .filter(|e| e.name.ends_with("Interaction"))
        .collect();
    if let Some(other) = interactions
        .iter()
        .find(|i| !SUPPORTED.contains(&i.name.as_str()))
    {
        return Err(format!(
            "<{}> is not imported; imported are {}",
            other.name,
            SUPPORTED.join(", ")
        ));
    }
    let interaction = match interactions.as_slice() {
        [one] => *one,
        [] => return Err("the item has no interaction, so nothing to answer".into()),
        // Blanks of a passage, typed or picked from their own lists.
        many if many.iter().all(|i| {
            matches!(
                i.name.as_str(),
                "textEntryInteraction" | "inlineChoiceInteraction"
            )
        }) =>
        {
            let mut notes = Vec::new();
            let response = blanks(item, many, &mut notes)?;
            let max_score = max_score(item, &response, &mut notes)?;
            return Ok(Reading {
                response,
                max_score,
                notes,
            });
        }
        many => {
            return Err(format!(
                "the item has {} interactions ({}); a question here takes one response, or blanks (text entries and inline choices)",
                many.len(),
                many.iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    };
    let identifier = interaction
        .attribute("responseIdentifier")
        .unwrap_or("RESPONSE");
    let declaration = item
        .children_named("responseDeclaration")
        .find(|d| d.attribute("identifier") == Some(identifier));
    let rule = rule_of(item);
    let mut notes = Vec::new();
    let response = match interaction.name.as_str() {
        "choiceInteraction"
        | "inlineChoiceInteraction"
        | "hottextInteraction"
        | "hotspotInteraction" => {
            let declaration = declaration
                .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
            choice(interaction, declaration, &rule, &mut notes)?
        }
        "textEntryInteraction" | "extendedTextInteraction" | "sliderInteraction" => {
            text(item, interaction, declaration, &rule, &mut notes)?
        }
        "graphicOrderInteraction"
        | "graphicAssociateInteraction"
        | "graphicGapMatchInteraction"
            if interaction
                .child("object")
                .and_then(|o| o.attribute("data"))
                .is_none() =>
        {
            return Err(format!(
                "a <{}> without its picture (<object data>)",
                interaction.name
            ))
        }
        "matchInteraction"
        | "gapMatchInteraction"
        | "orderInteraction"
        | "graphicOrderInteraction"
        | "graphicGapMatchInteraction" => {
            let declaration = declaration
                .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
            matching(interaction, declaration, &rule, &mut notes)?
        }
        "associateInteraction" | "graphicAssociateInteraction" => {
            let declaration = declaration
                .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
            associate(interaction, declaration, &rule, &mut notes)?
        }
        "selectPointInteraction" | "positionObjectInteraction" => {
            let declaration = declaration
                .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
            // A position object is placed on its stage's picture.
            let holder = if interaction.name == "positionObjectInteraction" {
                body.descendants()
                    .into_iter()
                    .find(|stage| {
                        stage.name == "positionObjectStage"
                            && stage.elements().any(|e| std::ptr::eq(e, interaction))
                    })
                    .ok_or("a <positionObjectInteraction> outside a <positionObjectStage>")?
            } else {
                interaction
            };
            let picture = holder
                .child("object")
                .filter(|o| o.attribute("data").is_some())
                .ok_or_else(|| {
                    format!("a <{}> without its picture (<object data>)", holder.name)
                })?;
            points(item, interaction, picture_size(picture), declaration)?
        }
        "uploadInteraction" | "drawingInteraction" => Response::Image {
            drawing: interaction.name == "drawingInteraction",
        },
        _ => unreachable!("only supported interactions get here"),
    };
    let max_score = max_score(item, &response, &mut notes)?;
    Ok(Reading {
        response,
        max_score,
        notes,
    })
}
