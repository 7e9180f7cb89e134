//! What a marker reads of a task, shared by the desks that mark (the scoring view,
//! second marking): the task's header, the question's markup, the answer (a scan
//! decoded for display, ahead of time where it can be) and a rubric's dimensions
//! with their levels; the participant's other answers; and the questions a
//! marker marks.

mod answer_image;
mod material;
mod other_answers;
mod prepared;
mod questions;
mod views;

pub use answer_image::{for_display, full_image, ShownImage};
pub use material::{answer_view, read_material, Material};
pub use other_answers::{other_answer, other_answers, OtherAnswer};
pub use prepared::PreparedScans;
pub use questions::{question_name, questions_with_rubric};
pub use views::{levels_of, AnswerView, DimensionView, ImageAnswer, LevelView};
