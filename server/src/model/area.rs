//! The customer area: the unit of isolation. Every read and write of a feed is
//! within exactly one.

use std::fmt;

/// A customer area, as the URL names it and an account belongs to it. Areas are
/// numbered from 1; the value is only made by [`CustomerArea::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomerArea(i32);

impl CustomerArea {
    /// The area with this ID, if it is a valid one (positive).
    pub fn new(id: i32) -> Option<Self> {
        (id > 0).then_some(Self(id))
    }

    pub fn id(self) -> i32 {
        self.0
    }
}

impl fmt::Display for CustomerArea {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_are_numbered_from_one() {
        assert_eq!(CustomerArea::new(7).map(CustomerArea::id), Some(7));
        assert_eq!(CustomerArea::new(0), None);
        assert_eq!(CustomerArea::new(-3), None);
    }
}
