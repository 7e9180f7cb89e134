//! A number as a package writes it (a value, a bound, a fraction, a grade): plain
//! decimal or exponent notation, finite; anything else is named in the reason.

pub fn number(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
        .ok_or_else(|| format!("'{}' is not a number", text.trim()))
}
