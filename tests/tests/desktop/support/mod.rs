//! What the window tests share: starting the app under tauri-driver, a second
//! client of its server, acting in the window, and the scoring steps built on both.

mod answer_files;
mod api;
mod desk;
mod driver;
mod tasks;
mod window;

pub use answer_files::*;
pub use api::Api;
pub use desk::*;
pub use driver::{artifacts_dir, DesktopSession};
pub use tasks::*;
pub use window::*;
