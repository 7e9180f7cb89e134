//! The files an assessment's results go out in (docs/exports.md): CSV, an Excel
//! workbook with the item analysis and its charts, and a OneRoster gradebook
//! (lineItems and results). Each writes the rows of `model::report::table`; text
//! that a spreadsheet would run as a formula is neutralised in every one.

pub mod csv;
pub mod oneroster;
pub mod xlsx;

/// Whether a spreadsheet would take `text` for a formula (or a DDE call such as
/// `=cmd|' /c calc'!A1`): it begins with `=`, `+`, `-`, `@`, a tab or a carriage
/// return (OWASP's list for CSV injection).
pub fn looks_like_formula(text: &str) -> bool {
    text.starts_with(['=', '+', '-', '@', '\t', '\r'])
}

/// `text` as a spreadsheet shows it and never runs: a formula-like text gets a
/// leading `'`, which spreadsheets read as "this is text". The CSV and OneRoster
/// files use it; the workbook marks such cells as text instead (a quote prefix
/// that is not part of the value).
pub fn neutralised(text: &str) -> std::borrow::Cow<'_, str> {
    if looks_like_formula(text) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

/// ISO 8601 in UTC, to the second, as CSV and OneRoster files give times.
pub fn iso_time(millis: i64) -> String {
    chrono::DateTime::from_timestamp_millis(millis)
        .map(|at| at.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_and_dde_calls_are_neutralised_and_plain_text_is_not() {
        for hostile in [
            "=cmd|' /c calc'!A1",
            "+1+1",
            "-2+3",
            "@SUM(A1)",
            "\t=1",
            "\r=1",
        ] {
            assert_eq!(neutralised(hostile), format!("'{hostile}"), "{hostile:?}");
        }
        for plain in ["Zoë", "O'Brien", "a=b", " 7", ""] {
            assert_eq!(neutralised(plain), plain);
        }
    }

    #[test]
    fn times_are_utc_seconds() {
        assert_eq!(iso_time(1_795_000_000_123), "2026-11-18T11:06:40Z");
    }
}
