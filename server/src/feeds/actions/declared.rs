//! The actions of the spec's results feed, as `$metadata` declares them.

use crate::odata::model::{Action, Binding, ComplexType};

pub static ACTIONS: &[Action] = &[
    Action {
        name: "PurgeResultsByParticipantName",
        binding: Some(("Results", Binding::Collection)),
        parameters: &[("ParticipantName", "Edm.String")],
        returns: None,
    },
    Action {
        name: "PurgeResultsByAssessmentId",
        binding: Some(("Results", Binding::Collection)),
        parameters: &[("AssessmentID", "Edm.String")],
        returns: None,
    },
    Action {
        name: "Purge",
        binding: Some(("Results", Binding::Entity)),
        parameters: &[],
        returns: None,
    },
    Action {
        name: "ReplayResult",
        binding: Some(("Results", Binding::Entity)),
        parameters: &[],
        returns: None,
    },
    Action {
        name: "PurgeParticipantAndResultsByParticipantName",
        binding: None,
        parameters: &[("ParticipantName", "Edm.String")],
        returns: None,
    },
    Action {
        name: "PurgeResultsByRetentionPolicy",
        binding: None,
        parameters: &[
            ("AdministratorName", "Edm.String"),
            ("RunType", "Edm.String"),
        ],
        returns: None,
    },
    Action {
        name: "FetchPurgeRetentionPeriodDays",
        binding: None,
        parameters: &[],
        returns: Some("Edm.Int32"),
    },
    Action {
        name: "ReplayResultsByDateRange",
        binding: None,
        parameters: &[("StartDate", "Edm.DateTime"), ("EndDate", "Edm.DateTime")],
        returns: None,
    },
    Action {
        name: "ReplayResultsByIDList",
        binding: None,
        parameters: &[("ResultIds", "Collection(Edm.Int32)")],
        returns: Some("ScoreDesk.ReplayOutcome"),
    },
];

pub static COMPLEX_TYPES: &[ComplexType] = &[ComplexType {
    name: "ReplayOutcome",
    properties: &[
        ("SuccessCount", "Edm.Int32"),
        ("FailureCount", "Edm.Int32"),
        ("Message", "Edm.String"),
        ("FailureResultIds", "Collection(Edm.Int32)"),
    ],
}];
