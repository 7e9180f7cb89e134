//! The actions of the spec's results feed, as `$metadata` declares them, each with
//! its handler: purges queued, replays, and the retention period.

use super::{export, progress, purges, replay, statistics};
use crate::feeds::handler::action_handler;
use crate::feeds::handler::ServedAction;
use crate::odata::model::{Action, Binding, ComplexType};

pub static ACTIONS: &[ServedAction] = &[
    ServedAction {
        action: Action {
            name: "PurgeResultsByParticipantName",
            binding: Some(("Results", Binding::Collection)),
            parameters: &[("ParticipantName", "Edm.String")],
            returns: None,
            function: false,
        },
        invoke: action_handler!(purges::queue),
    },
    ServedAction {
        action: Action {
            name: "PurgeResultsByAssessmentId",
            binding: Some(("Results", Binding::Collection)),
            parameters: &[("AssessmentID", "Edm.String")],
            returns: None,
            function: false,
        },
        invoke: action_handler!(purges::queue),
    },
    ServedAction {
        action: Action {
            name: "Purge",
            binding: Some(("Results", Binding::Entity)),
            parameters: &[],
            returns: None,
            function: false,
        },
        invoke: action_handler!(purges::queue),
    },
    ServedAction {
        action: Action {
            name: "ReplayResult",
            binding: Some(("Results", Binding::Entity)),
            parameters: &[],
            returns: None,
            function: false,
        },
        invoke: action_handler!(replay::invoke),
    },
    ServedAction {
        action: Action {
            name: "PurgeParticipantAndResultsByParticipantName",
            binding: None,
            parameters: &[("ParticipantName", "Edm.String")],
            returns: None,
            function: false,
        },
        invoke: action_handler!(purges::queue),
    },
    ServedAction {
        action: Action {
            name: "PurgeResultsByRetentionPolicy",
            binding: None,
            parameters: &[
                ("AdministratorName", "Edm.String"),
                ("RunType", "Edm.String"),
            ],
            returns: None,
            function: false,
        },
        invoke: action_handler!(purges::queue),
    },
    ServedAction {
        action: Action {
            name: "FetchPurgeRetentionPeriodDays",
            binding: None,
            parameters: &[],
            returns: Some("Edm.Int32"),
            function: false,
        },
        invoke: action_handler!(purges::retention_period),
    },
    ServedAction {
        action: Action {
            name: "ReplayResultsByDateRange",
            binding: None,
            parameters: &[("StartDate", "Edm.DateTime"), ("EndDate", "Edm.DateTime")],
            returns: None,
            function: false,
        },
        invoke: action_handler!(replay::invoke),
    },
    ServedAction {
        action: Action {
            name: "ReplayResultsByIDList",
            binding: None,
            parameters: &[("ResultIds", "Collection(Edm.Int32)")],
            returns: Some("ScoreDesk.ReplayOutcome"),
            function: false,
        },
        invoke: action_handler!(replay::invoke),
    },
    // Our extension's functions (GET; model::access::FUNCTIONS says who may).
    ServedAction {
        action: Action {
            name: "AssessmentStatistics",
            binding: None,
            parameters: &[("AssessmentID", "Edm.Int64")],
            returns: Some("ScoreDesk.AssessmentStatistics"),
            function: true,
        },
        invoke: action_handler!(statistics::invoke),
    },
    ServedAction {
        action: Action {
            name: "ScoringProgress",
            binding: None,
            parameters: &[("AssessmentID", "Edm.Int64")],
            returns: Some("Collection(ScoreDesk.ScoringProgressRow)"),
            function: true,
        },
        invoke: action_handler!(progress::invoke),
    },
    ServedAction {
        action: Action {
            name: "ExportResults",
            binding: None,
            parameters: &[("AssessmentID", "Edm.Int64"), ("Format", "Edm.String")],
            returns: Some("Edm.Binary"),
            function: true,
        },
        invoke: action_handler!(export::invoke),
    },
];

pub static COMPLEX_TYPES: &[ComplexType] = &[
    ComplexType {
        name: "ReplayOutcome",
        properties: &[
            ("SuccessCount", "Edm.Int32"),
            ("FailureCount", "Edm.Int32"),
            ("Message", "Edm.String"),
            ("FailureResultIds", "Collection(Edm.Int32)"),
        ],
    },
    ComplexType {
        name: "AssessmentStatistics",
        properties: &[
            ("AssessmentID", "Edm.Int64"),
            ("N", "Edm.Int32"),
            ("LeftOut", "Edm.Int32"),
            ("Mean", "Edm.Double"),
            ("StandardDeviation", "Edm.Double"),
            ("Alpha", "Edm.Double"),
            ("Dichotomous", "Edm.Boolean"),
            ("StandardErrorOfMeasurement", "Edm.Double"),
            ("GroupSize", "Edm.Int32"),
            ("Distribution", "Collection(Edm.Int32)"),
            ("ComputedDateTime", "Edm.DateTime"),
        ],
    },
    ComplexType {
        name: "ScoringProgressRow",
        properties: &[
            ("By", "Edm.String"),
            ("Key", "Edm.String"),
            ("Name", "Edm.String"),
            ("Open", "Edm.Int32"),
            ("BeingScored", "Edm.Int32"),
            ("Saved", "Edm.Int32"),
            ("Scored", "Edm.Int32"),
            ("ScoredByHour", "Collection(Edm.Int32)"),
        ],
    },
];
