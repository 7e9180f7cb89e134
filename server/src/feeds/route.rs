//! From a request to what serves it, deciding on the way everything that does not
//! depend on the data: the path and query options (400, 404), the method (405 with
//! `Allow`), the one access decision (403), and what is declared but not served yet
//! (501). A `$batch` operation is routed exactly as a request of its own.

use axum::http::{HeaderMap, Method, Uri};

use super::actions::declared::ACTIONS;
use super::{access, entities, writers};
use crate::auth::Principal;
use crate::odata::expand;
use crate::odata::model::{EntitySet, Verb};
use crate::odata::path::{self, ActionPath, EntityPath, ResourcePath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;

/// A request's head, as routing and the handlers need it.
pub struct Incoming {
    pub method: Method,
    pub uri: Uri,
    pub headers: HeaderMap,
    /// The client's address (the audit log's Source).
    pub remote: Option<std::net::IpAddr>,
}

/// What serves a routed request.
pub enum Target {
    ServiceDocument,
    Metadata,
    Batch,
    /// GET or HEAD on an entity path.
    Read {
        path: EntityPath,
        head: bool,
    },
    /// POST to a collection, PUT or DELETE of one entity, on a feed that serves it.
    Write {
        path: EntityPath,
        verb: Verb,
    },
    /// POST of an action.
    Action {
        path: ActionPath,
    },
}

pub struct Routed {
    pub target: Target,
    pub options: QueryOptions,
}

/// Routes `incoming` for `principal`.
pub fn route(principal: &Principal, incoming: &Incoming) -> Result<Routed, ApiError> {
    let text = resource_path_text(incoming.uri.path())?;
    let resource = path::parse(&text, entities::by_name, ACTIONS)?;
    let options = QueryOptions::parse(incoming.uri.query())?;
    let method = &incoming.method;
    let reads = [Verb::Get, Verb::Head];
    let target = match resource {
        ResourcePath::ServiceRoot => {
            allowed_verb(method, &reads, "the service root")?;
            Target::ServiceDocument
        }
        ResourcePath::Metadata => {
            allowed_verb(method, &reads, "$metadata")?;
            Target::Metadata
        }
        ResourcePath::Batch => {
            allowed_verb(method, &[Verb::Post], "$batch")?;
            Target::Batch
        }
        ResourcePath::Action(action) => {
            allowed_verb(
                method,
                &[Verb::Post],
                &format!("the action {}", action.action.name),
            )?;
            access::check(principal, &access::action_request(&action, &options))?;
            Target::Action { path: action }
        }
        ResourcePath::Entities(path) => {
            let (allowed, resource) = allowed_on(&path);
            let verb = allowed_verb(method, &allowed, &resource)?;
            let expand = expand::resolve(path.target(), &options.expand, entities::by_name)?;
            let touches = access::entity_request(&path, &expand, &options, verb);
            access::check(principal, &touches)?;
            if let Some(reason) = not_served_yet(path.target(), verb) {
                return Err(ApiError::NotImplemented(reason));
            }
            expand::check_expandable(&expand)?;
            if verb.reads() {
                Target::Read {
                    path,
                    head: verb == Verb::Head,
                }
            } else {
                Target::Write { path, verb }
            }
        }
    };
    Ok(Routed { target, options })
}

/// A request's route as a metric label: `/health`, `/metrics`, or the OData resource
/// path's pattern under `/deliveryodata/{area}/` (key values left out); anything
/// else is `(unknown)`, so that labels stay as few as the routes.
pub fn pattern(request_path: &str) -> String {
    const SERVICE: &str = "/deliveryodata";
    match request_path {
        "/health" | "/metrics" => request_path.to_owned(),
        path if path.starts_with("/print/") => "/print/{area}/snapshots/{snapshot}".to_owned(),
        path if path == SERVICE || path.starts_with("/deliveryodata/") => {
            let parsed = resource_path_text(path)
                .ok()
                .and_then(|text| path::parse(&text, entities::by_name, ACTIONS).ok());
            match parsed {
                Some(resource) => format!("{SERVICE}/{{area}}/{}", resource.pattern()),
                None => format!("{SERVICE}/{{area}}/(unknown)"),
            }
        }
        _ => "(unknown)".to_owned(),
    }
}

/// The resource path after `/deliveryodata/<customer_id>`, percent-decoded.
fn resource_path_text(request_path: &str) -> Result<String, ApiError> {
    let decoded = percent_encoding::percent_decode_str(request_path)
        .decode_utf8()
        .map_err(|_| ApiError::bad_request("the path is not valid UTF-8 once percent-decoded"))?;
    let mut segments = decoded.trim_start_matches('/').splitn(3, '/');
    let _service = segments.next();
    let _area = segments.next();
    Ok(segments.next().unwrap_or_default().to_owned())
}

/// The verb of `method` if `allowed` has it; otherwise a 405 naming what `resource` takes.
fn allowed_verb(method: &Method, allowed: &[Verb], resource: &str) -> Result<Verb, ApiError> {
    Verb::from_method(method.as_str())
        .filter(|verb| allowed.contains(verb))
        .ok_or_else(|| ApiError::method_not_allowed(method.as_str(), resource, allowed))
}

/// The methods an entity path takes: `$links`, `$count` and `$value` are read-only; otherwise
/// what the target feed declares for one entity or for its collection.
fn allowed_on(path: &EntityPath) -> (Vec<Verb>, String) {
    let target = path.target();
    if path.links {
        // Links are read here; they change with the entities they join (a task's
        // result is the task's), never on their own.
        let navigation = path.steps.last().map_or("", |step| step.navigation.name);
        return (
            vec![Verb::Get, Verb::Head],
            format!("the $links of {navigation}"),
        );
    }
    match path.suffix {
        Suffix::Count => (
            vec![Verb::Get, Verb::Head],
            format!("the $count of {}", target.name),
        ),
        Suffix::Value => (
            vec![Verb::Get, Verb::Head],
            format!("the $value of a {}", target.type_name),
        ),
        Suffix::None if path.is_single() => (
            target.writes.allowed(true),
            format!("one {}", target.type_name),
        ),
        Suffix::None => (
            target.writes.allowed(false),
            format!("the {} collection", target.name),
        ),
    }
}

/// What the feeds declare and this version does not serve yet; each arrives with its
/// own issue.
fn not_served_yet(target: &EntitySet, verb: Verb) -> Option<String> {
    let served = verb.reads() || writers::serves(target, verb);
    if !served {
        return Some(format!(
            "{} on {} is not served yet",
            verb.as_str(),
            target.name
        ));
    }
    None
}
