//! The bounds a package is read within. A package past any of them is refused with
//! a message naming the bound; none of them is met by a real assessment (the largest
//! package we measured, 500 items each with an image, is 3 MB).

/// The zip as uploaded or read from disk.
pub const MAX_PACKAGE_BYTES: usize = 256 * 1024 * 1024;
/// Entries in the zip's central directory (checked before the directory is read).
pub const MAX_ENTRIES: usize = 20_000;
/// A package that is one XML file (a Moodle XML bank, its images inside it).
pub const MAX_DOCUMENT_BYTES: usize = 32 * 1024 * 1024;
/// One XML member (the manifest, a test, an item), uncompressed.
pub const MAX_XML_BYTES: u64 = 4 * 1024 * 1024;
/// One image, uncompressed.
pub const MAX_IMAGE_BYTES: u64 = 8 * 1024 * 1024;
/// All the members read, uncompressed, together.
pub const MAX_TOTAL_BYTES: u64 = 512 * 1024 * 1024;
/// Items in one package.
pub const MAX_ITEMS: usize = 5_000;
/// How deep elements nest in one XML document.
pub const MAX_XML_DEPTH: usize = 128;
/// Elements in one XML document.
pub const MAX_XML_ELEMENTS: usize = 200_000;
/// Choices of one choice interaction.
pub const MAX_CHOICES: usize = 100;
/// Rows of one matching (pairs, gaps, positions): each is a row of bubbles on paper.
pub const MAX_ROWS: usize = 40;
/// Options a matching's rows pick from: each row holds one bubble per option.
pub const MAX_OPTIONS: usize = 26;
