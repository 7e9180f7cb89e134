//! The actions of the spec's results feed, as `$metadata` declares them, and our
//! extension's import of content (docs/content.md).

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
    // Our extension: a QTI content package into the caller's area (docs/content.md).
    Action {
        name: "ImportQtiPackage",
        binding: None,
        parameters: &[
            ("Package", "Edm.Binary"),
            ("FileName", "Edm.String"),
            ("Preview", "Edm.Boolean"),
        ],
        returns: Some("ScoreDesk.ContentImportReport"),
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
        name: "ContentImportReport",
        properties: &[
            ("Preview", "Edm.Boolean"),
            ("QtiVersion", "Edm.String"),
            ("AssessmentId", "Edm.Int64"),
            ("AssessmentName", "Edm.String"),
            ("Assessment", "Edm.String"),
            ("Questions", "Collection(ScoreDesk.ImportedQuestion)"),
            ("Skipped", "Collection(ScoreDesk.SkippedItem)"),
            ("ScoreBands", "Collection(ScoreDesk.ImportedScoreBand)"),
            ("Images", "Edm.Int32"),
            ("TopicsCreated", "Edm.Int32"),
            ("Notes", "Collection(Edm.String)"),
        ],
    },
    ComplexType {
        name: "ImportedQuestion",
        properties: &[
            ("Position", "Edm.Int32"),
            ("Item", "Edm.String"),
            ("File", "Edm.String"),
            ("Title", "Edm.String"),
            ("Text", "Edm.String"),
            ("QuestionId", "Edm.Int64"),
            ("Outcome", "Edm.String"),
            ("Revision", "Edm.Int32"),
            ("PreviousQuestionId", "Edm.Int64"),
            ("QuestionType", "Edm.String"),
            ("MaxScore", "Edm.Int32"),
            ("Choices", "Edm.Int32"),
            ("Scoring", "Edm.String"),
            ("Topic", "Edm.String"),
            ("Notes", "Collection(Edm.String)"),
        ],
    },
    ComplexType {
        name: "SkippedItem",
        properties: &[
            ("Item", "Edm.String"),
            ("File", "Edm.String"),
            ("Reason", "Edm.String"),
        ],
    },
    ComplexType {
        name: "ImportedScoreBand",
        properties: &[("MinPercentage", "Edm.Int32"), ("Title", "Edm.String")],
    },
];
