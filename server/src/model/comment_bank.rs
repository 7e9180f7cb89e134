//! The comment bank (our extension, `BankedComments`): comments a scorer saves once
//! and inserts again, shared by the scorers of a customer area. A comment belongs to
//! a question and, optionally, to one dimension of its rubric (none: it is for the
//! overall comments). These are its rules, free of HTTP and SQL.

/// What a banked comment says and where it belongs, as checked for writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankedCommentText {
    /// Without leading and trailing white space.
    pub text: String,
    pub dimension_order: Option<i32>,
}

/// Checks a comment for the bank: some text besides white space, and, when it
/// names a dimension, one of `dimension_orders` (the orders of the question's
/// rubric; a question without a rubric takes only overall comments).
pub fn check_banked_comment(
    text: &str,
    dimension_order: Option<i32>,
    dimension_orders: &[i32],
) -> Result<BankedCommentText, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("BankedComment.Text is empty: a banked comment says something".into());
    }
    if let Some(order) = dimension_order {
        if !dimension_orders.contains(&order) {
            return Err(match dimension_orders {
                [] => format!(
                    "BankedComment.DimensionOrder is {order}, but the question has no rubric: \
                     leave it null for an overall comment"
                ),
                orders => format!(
                    "BankedComment.DimensionOrder is {order}, which is not a dimension of the \
                     question's rubric (its dimensions are {})",
                    orders
                        .iter()
                        .map(i32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
    }
    Ok(BankedCommentText {
        text: trimmed.to_owned(),
        dimension_order,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_and_must_say_something() {
        let checked = check_banked_comment("  Clear method. \n", None, &[]).unwrap();
        assert_eq!(checked.text, "Clear method.");
        let error = check_banked_comment(" \n\t", None, &[1, 2]).unwrap_err();
        assert!(error.contains("BankedComment.Text"), "{error}");
    }

    #[test]
    fn a_dimension_must_be_one_of_the_rubric() {
        assert!(check_banked_comment("Good", Some(2), &[1, 2, 3]).is_ok());
        let error = check_banked_comment("Good", Some(4), &[1, 2, 3]).unwrap_err();
        assert!(
            error.contains("DimensionOrder is 4") && error.contains("1, 2, 3"),
            "{error}"
        );
        let error = check_banked_comment("Good", Some(1), &[]).unwrap_err();
        assert!(error.contains("no rubric"), "{error}");
        assert!(check_banked_comment("Overall", None, &[]).is_ok());
    }
}
