//! Content, for administrators (docs/desktop.md, "Content"): a QTI package
//! previewed, then imported, through the server's `ImportQtiPackage` action; and
//! the rubrics of an assessment's essays authored through `POST Rubrics`, and
//! the scripts marked with a corrected rubric's old version regraded. The
//! server's rules judge both; its 403 is the fence.

pub mod commands;
mod import;
mod regrades;
mod rubrics;

pub use import::{import_package, PackageReport};
pub use regrades::{regrade, regrade_plan, RegradeDone, RegradePlan, RegradeRequest};
pub use rubrics::{
    rubric_form, rubric_questions, save_rubric, RubricForm, RubricQuestion, SavedRubric,
};
