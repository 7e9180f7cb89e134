//! The Edm primitive types the feeds use.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdmType {
    Boolean,
    Int16,
    Int32,
    Int64,
    Double,
    String,
    DateTime,
}

impl EdmType {
    /// The type's name, as `$metadata` and Atom's `m:type` write it.
    pub fn name(self) -> &'static str {
        match self {
            EdmType::Boolean => "Edm.Boolean",
            EdmType::Int16 => "Edm.Int16",
            EdmType::Int32 => "Edm.Int32",
            EdmType::Int64 => "Edm.Int64",
            EdmType::Double => "Edm.Double",
            EdmType::String => "Edm.String",
            EdmType::DateTime => "Edm.DateTime",
        }
    }
}

impl fmt::Display for EdmType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
