//! Who may do what: the contract's three roles, the lead marker, and the one role table that every
//! request is decided against (docs/architecture.md, "Roles").
//!
//! A request is described by everything it touches: every entity set it reads (the
//! path's first set, each navigation step, each `$expand` path, each navigation a
//! `$filter` or `$orderby` crosses), the set it writes, and the action it runs. It is
//! allowed only if the role may do each of these. Deciding from the whole request,
//! not from how its URL is spelled, is what makes `Results(1)?$expand=ScoringTasks`
//! answer the same as `ScoringTasks`.

use std::fmt;
use std::str::FromStr;

/// What an account may do: the contract's three roles, and the lead marker
/// (docs/marking-quality.md, "Who: the lead marker").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Everything in its customer area (or every area, for a server administrator).
    Admin,
    /// The scoring feeds and what the scoring workflow reads.
    Scorer,
    /// External delivery, and reading results.
    Coordinator,
    /// Everything a scorer may do, and the marking's figures; the sets of marking
    /// quality (flags, second marking, seeds) as they are built.
    Lead,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Admin, Role::Scorer, Role::Coordinator, Role::Lead];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Scorer => "scorer",
            Role::Coordinator => "coordinator",
            Role::Lead => "lead",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "admin" => Ok(Role::Admin),
            "scorer" => Ok(Role::Scorer),
            "coordinator" => Ok(Role::Coordinator),
            "lead" => Ok(Role::Lead),
            other => Err(format!(
                "unknown role '{other}': use admin, scorer, coordinator or lead"
            )),
        }
    }
}

/// An account of no customer area uses every area, so it must be an administrator:
/// a "scorer of every area" would be a scorer in every customer's data.
pub fn check_account_scope(area: Option<i32>, role: Role) -> Result<(), String> {
    match (area, role) {
        (None, Role::Admin) | (Some(_), _) => Ok(()),
        (None, other) => Err(format!(
            "a server administrator uses every customer area, so its role must be admin, not {other}"
        )),
    }
}

/// One thing a request does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Reads entities of this set (as the target, on the way, or expanded).
    Read(&'static str),
    /// Creates or changes entities of this set (POST, PUT, PATCH, MERGE).
    Write(&'static str),
    /// Runs an action, bound to an entity set or (`None`) to the service.
    Action(&'static str, Option<&'static str>),
    /// Calls a function (GET, changes nothing): [`FUNCTIONS`] says who may.
    Function(&'static str),
}

impl fmt::Display for Touch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Touch::Read(set) => write!(f, "read {set}"),
            Touch::Write(set) => write!(f, "change {set}"),
            Touch::Action(action, _) => write!(f, "run the action {action}"),
            Touch::Function(function) => write!(f, "call the function {function}"),
        }
    }
}

/// What one role may do with one entity set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    None,
    Read,
    ReadWrite,
}

/// The role table: per entity set, what a scorer, a coordinator and a lead
/// marker may do.
/// Administrators may do everything, actions included; nobody else runs actions.
///
/// - Scorers read what the spec's scoring endpoints read (tasks, their results,
///   rubrics and dimensions, questions and answers, groups, the participant's
///   result and its assessment) and write the three scoring feeds.
/// - Coordinators do external delivery (snapshots, print batches, attempts,
///   uploads) and read results with what the delivery workflow reads beside them.
///   Scores and comments in progress (ScoringTasks, ScoringResults,
///   DimensionScores) and rubrics are the scorers'.
/// - Lead markers may do everything scorers may; what only they may do comes
///   with the sets of marking quality (docs/marking-quality.md): answering
///   flags (`FlagAnswers`) is the first, reading every marking of a
///   double-marked task and the plans of double marking follow.
/// - The comment bank (`BankedComments`, our extension) is the scorers': they read,
///   add, edit and delete its comments; coordinators have no use for it.
pub const ROLE_TABLE: &[(&str, Grant, Grant, Grant)] = &[
    // (entity set, scorer, coordinator, lead)
    // Our extension: marks and notes on the script; a scorer reads and writes
    // only his own (feeds/marking/annotations.rs).
    (
        "Annotations",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    // Our extension: a marker applies a marked script to the answers alike
    // (a scorer reads his own applications, and which tasks they marked).
    (
        "AnswerGroupMarkings",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    ("AnswerGroupMembers", Grant::Read, Grant::None, Grant::Read),
    ("AnswerUploads", Grant::None, Grant::ReadWrite, Grant::None),
    ("Answers", Grant::Read, Grant::Read, Grant::Read),
    (
        "AssessmentSnapshotData",
        Grant::None,
        Grant::Read,
        Grant::None,
    ),
    (
        "AssessmentSnapshots",
        Grant::None,
        Grant::ReadWrite,
        Grant::None,
    ),
    ("Assessments", Grant::Read, Grant::Read, Grant::Read),
    ("Attempts", Grant::None, Grant::ReadWrite, Grant::None),
    // Our extension: the scorers' shared comment bank.
    (
        "BankedComments",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    // Our extension: what earns each score, read with the rubric.
    ("DimensionLevels", Grant::Read, Grant::None, Grant::Read),
    (
        "DimensionScores",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    ("Dimensions", Grant::Read, Grant::None, Grant::Read),
    // Our extension: a lead marker's answers to flags; the markers who flagged
    // read them.
    ("FlagAnswers", Grant::Read, Grant::None, Grant::ReadWrite),
    // Our extension: markers flag scripts to the lead marker.
    ("Flags", Grant::ReadWrite, Grant::None, Grant::ReadWrite),
    ("Groups", Grant::Read, Grant::Read, Grant::Read),
    // Our extension: the item analysis, for coordinators (issue 34).
    ("ItemStatistics", Grant::None, Grant::Read, Grant::Read),
    // Our extension: markers paused by their seeds (a scorer reads his own) and
    // the leads' releases.
    ("MarkerPauses", Grant::Read, Grant::None, Grant::Read),
    ("MarkerReleases", Grant::None, Grant::None, Grant::ReadWrite),
    // Our extension: double marking's plans, written by administrators.
    ("MarkingPlans", Grant::None, Grant::None, Grant::Read),
    // Our extension: each marker's marking of a double-marked task and its
    // dimension scores; a scorer reads only his own (feeds/marking/markings.rs).
    (
        "MarkingScores",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    ("Markings", Grant::ReadWrite, Grant::None, Grant::ReadWrite),
    ("Participants", Grant::None, Grant::Read, Grant::None),
    ("PrintBatches", Grant::None, Grant::ReadWrite, Grant::None),
    ("Questions", Grant::Read, Grant::Read, Grant::Read),
    ("Results", Grant::Read, Grant::Read, Grant::Read),
    // Coordinators follow the purges of the results they deliver.
    ("ResultsAuditLog", Grant::None, Grant::Read, Grant::None),
    // Our extension: leads correct a question's mark scheme (feeds/scoring/rubrics.rs)
    // and regrade what was marked with the old one.
    ("Rubrics", Grant::Read, Grant::None, Grant::ReadWrite),
    // Our extension: the regrades' audit entries (feeds/marking/regrades.rs).
    ("RubricRegrades", Grant::None, Grant::None, Grant::ReadWrite),
    // Our extension: who changed a task's status; written only by the server.
    ("ScoringEvents", Grant::Read, Grant::None, Grant::Read),
    (
        "ScoringResults",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    (
        "ScoringTasks",
        Grant::ReadWrite,
        Grant::None,
        Grant::ReadWrite,
    ),
    // Our extension: the double-marked tasks a marker may take.
    ("SecondMarkingQueue", Grant::Read, Grant::None, Grant::Read),
    // Our extension: each seed served and how it was marked; the lead's alone,
    // so that no marker can tell a seed from a real task.
    ("SeedMarkings", Grant::None, Grant::None, Grant::Read),
    // Our extension: the lead's definitive scripts.
    ("Seeds", Grant::None, Grant::None, Grant::ReadWrite),
    ("TopicScores", Grant::None, Grant::Read, Grant::None),
];

/// Our extension's functions and who besides administrators may call them:
/// (function, scorer, coordinator, lead). Figures about marking are the
/// coordinators' and the lead markers' (who answer for the marks being right);
/// scorers see none of them. Taking results out is the coordinators'.
pub const FUNCTIONS: &[(&str, bool, bool, bool)] = &[
    ("AssessmentStatistics", false, true, true),
    ("ScoringProgress", false, true, true),
    ("ExportResults", false, true, false),
    ("MarkingAgreement", false, true, true),
    ("MarkerStatistics", false, true, true),
    ("MarkerDrift", false, true, true),
    // The open tasks alike a script: the marker's, in the scoring view.
    ("AnswersAlike", true, false, true),
    // The marked script to print or return to the student.
    ("MarkedScript", false, true, true),
    // The scripts a regrade of a rubric would move, which the lead confirms.
    ("RegradeCount", false, false, true),
];

/// What `role` may do with `set` (nothing for a set the table does not name).
pub fn grant(role: Role, set: &str) -> Grant {
    let row = ROLE_TABLE.iter().find(|(name, ..)| *name == set);
    match (role, row) {
        (Role::Admin, _) => Grant::ReadWrite,
        (_, None) => Grant::None,
        (Role::Scorer, Some((_, scorer, _, _))) => *scorer,
        (Role::Coordinator, Some((_, _, coordinator, _))) => *coordinator,
        (Role::Lead, Some((_, _, _, lead))) => *lead,
    }
}

/// Whether `role` may do `touch`.
pub fn permits(role: Role, touch: Touch) -> bool {
    match touch {
        Touch::Read(set) => grant(role, set) != Grant::None,
        Touch::Write(set) => grant(role, set) == Grant::ReadWrite,
        Touch::Action(..) => role == Role::Admin,
        Touch::Function(name) => {
            let row = FUNCTIONS.iter().find(|(function, ..)| *function == name);
            match (role, row) {
                (Role::Admin, _) => true,
                (_, None) => false,
                (Role::Scorer, Some((_, scorer, _, _))) => *scorer,
                (Role::Coordinator, Some((_, _, coordinator, _))) => *coordinator,
                (Role::Lead, Some((_, _, _, lead))) => *lead,
            }
        }
    }
}

/// The one access decision of a request: `Err` names the first thing `role` may not do.
pub fn decide(role: Role, touches: &[Touch]) -> Result<(), Touch> {
    match touches.iter().find(|touch| !permits(role, **touch)) {
        Some(refused) => Err(*refused),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_administrator_may_do_everything_including_actions() {
        for (set, ..) in ROLE_TABLE {
            assert!(permits(Role::Admin, Touch::Write(set)));
        }
        assert!(permits(
            Role::Admin,
            Touch::Action("Purge", Some("Results"))
        ));
    }

    #[test]
    fn only_administrators_run_actions_or_change_results() {
        for role in [Role::Scorer, Role::Coordinator, Role::Lead] {
            assert!(!permits(role, Touch::Action("Purge", Some("Results"))));
            assert!(!permits(
                role,
                Touch::Action("FetchPurgeRetentionPeriodDays", None)
            ));
            assert!(!permits(role, Touch::Write("Results")));
            assert!(permits(role, Touch::Read("Results")));
        }
    }

    #[test]
    fn a_scorer_reads_what_the_scoring_workflow_reads_and_nothing_of_delivery() {
        for set in [
            "ScoringTasks",
            "ScoringResults",
            "DimensionScores",
            "Dimensions",
            "Rubrics",
            "Questions",
            "Answers",
            "Groups",
            "Results",
            "Assessments",
        ] {
            assert!(permits(Role::Scorer, Touch::Read(set)), "{set}");
        }
        for set in [
            "TopicScores",
            "Attempts",
            "Participants",
            "ResultsAuditLog",
            "ItemStatistics",
        ] {
            assert!(!permits(Role::Scorer, Touch::Read(set)), "{set}");
        }
    }

    #[test]
    fn a_coordinator_never_reads_scores_in_progress_or_rubrics() {
        for set in [
            "ScoringTasks",
            "ScoringResults",
            "DimensionScores",
            "Rubrics",
        ] {
            assert!(!permits(Role::Coordinator, Touch::Read(set)), "{set}");
        }
        assert!(permits(Role::Coordinator, Touch::Write("Attempts")));
    }

    #[test]
    fn the_decision_names_the_first_refused_touch() {
        let touches = [
            Touch::Read("Results"),
            Touch::Read("ScoringTasks"),
            Touch::Read("ScoringResults"),
        ];
        assert_eq!(
            decide(Role::Coordinator, &touches),
            Err(Touch::Read("ScoringTasks"))
        );
        assert_eq!(decide(Role::Scorer, &touches), Ok(()));
    }

    #[test]
    fn an_account_of_every_area_must_be_an_administrator() {
        assert!(check_account_scope(None, Role::Admin).is_ok());
        assert!(check_account_scope(Some(1), Role::Scorer).is_ok());
        for role in [Role::Scorer, Role::Coordinator, Role::Lead] {
            let error = check_account_scope(None, role).unwrap_err();
            assert!(error.contains(role.as_str()), "{error}");
        }
    }

    #[test]
    fn a_lead_marker_may_do_all_a_scorer_may_read_the_plans_and_call_the_marking_figures() {
        for (set, ..) in ROLE_TABLE {
            let scorer = grant(Role::Scorer, set);
            if *set == "ItemStatistics" || *set == "MarkingPlans" {
                // What AssessmentStatistics answers with; the plans of double
                // marking, which administrators write.
                assert_eq!((scorer, grant(Role::Lead, set)), (Grant::None, Grant::Read));
            } else if *set == "Rubrics" {
                // A lead corrects the mark scheme; markers read it.
                assert_eq!(
                    (scorer, grant(Role::Lead, set)),
                    (Grant::Read, Grant::ReadWrite)
                );
            } else if *set == "Seeds"
                || *set == "SeedMarkings"
                || *set == "MarkerReleases"
                || *set == "RubricRegrades"
            {
                // Standardisation is the lead's: markers must not tell seeds;
                // nor regrade what they marked.
                assert_eq!(scorer, Grant::None);
                assert_ne!(grant(Role::Lead, set), Grant::None);
            } else if *set == "FlagAnswers" {
                // Markers read the answers to their flags; leads write them.
                assert_eq!(
                    (scorer, grant(Role::Lead, set)),
                    (Grant::Read, Grant::ReadWrite)
                );
            } else {
                assert_eq!(grant(Role::Lead, set), scorer, "{set}");
            }
        }
        assert!(permits(Role::Lead, Touch::Function("ScoringProgress")));
        assert!(!permits(Role::Scorer, Touch::Function("ScoringProgress")));
        assert!(!permits(Role::Lead, Touch::Function("ExportResults")));
        assert!(permits(Role::Lead, Touch::Function("RegradeCount")));
        assert!(!permits(Role::Scorer, Touch::Function("RegradeCount")));
        assert_eq!("lead".parse::<Role>(), Ok(Role::Lead));
        assert!(Role::ALL
            .iter()
            .all(|role| role.as_str().parse() == Ok(*role)));
    }

    #[test]
    fn a_set_the_table_does_not_name_is_refused_to_all_but_administrators() {
        assert!(!permits(Role::Scorer, Touch::Read("Accounts")));
        assert!(permits(Role::Admin, Touch::Read("Accounts")));
    }
}
