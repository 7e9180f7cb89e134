//! From a request to what serves it, deciding on the way everything that does not
//! depend on the data: the path and query options (400, 404), the method (405 with
//! `Allow`), the one access decision (403), and what is declared but not served yet
//! (501). A `$batch` operation is routed exactly as a request of its own.

use axum::http::Method;

use super::access;
use crate::auth::Principal;
use crate::feeds::catalogue;
use crate::feeds::handler::{ActionHandler, BeforeRead, Incoming, WriteHandler};
use crate::odata::expand;
use crate::odata::model::Verb;
use crate::odata::path::{self, ActionPath, EntityPath, ResourcePath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;

/// What serves a routed request.
pub enum Target {
    ServiceDocument,
    Metadata,
    Batch,
    /// GET or HEAD on an entity path; `before` is what the path's first feed
    /// does before it is read.
    Read {
        path: EntityPath,
        head: bool,
        before: Option<BeforeRead>,
    },
    /// POST to a collection, PUT, PATCH, MERGE or DELETE of one entity, with the
    /// handler the feed's declaration names for it.
    Write {
        path: EntityPath,
        handler: WriteHandler,
    },
    /// POST of an action, with its handler.
    Action {
        path: ActionPath,
        handler: ActionHandler,
    },
}

pub struct Routed {
    pub target: Target,
    pub options: QueryOptions,
    /// The request's metric label (`pattern`), put on the answer for the layer that
    /// counts it, which would otherwise parse the path a second time.
    pub pattern: RoutePattern,
}

/// A route's metric label, carried in the answer's extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutePattern(pub String);

/// Routes `incoming` for `principal`.
pub fn route(principal: &Principal, incoming: &Incoming) -> Result<Routed, ApiError> {
    let text = resource_path_text(incoming.uri.path())?;
    let resource = path::parse(&text, catalogue::by_name, catalogue::actions())?;
    let pattern = RoutePattern(service_label(&resource));
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
            let (verbs, kind) = match action.action.http_method() {
                Verb::Get => (&reads[..], "function"),
                _ => (&[Verb::Post][..], "action"),
            };
            allowed_verb(method, verbs, &format!("the {kind} {}", action.action.name))?;
            access::check(principal, &access::action_request(&action, &options))?;
            let handler = catalogue::action(action.action.name)
                .ok_or_else(|| not_served(method.as_str(), action.action.name))?
                .invoke;
            Target::Action {
                path: action,
                handler,
            }
        }
        ResourcePath::Entities(path) => {
            let (allowed, resource) = allowed_on(&path);
            let verb = allowed_verb(method, &allowed, &resource)?;
            let expand = expand::resolve(path.target(), &options.expand, catalogue::by_name)?;
            let touches = access::entity_request(&path, &expand, &options, verb);
            access::check(principal, &touches)?;
            if verb.reads() {
                expand::check_expandable(&expand)?;
                let before = catalogue::feed(path.set.name).and_then(|feed| feed.before_read);
                Target::Read {
                    path,
                    head: verb == Verb::Head,
                    before,
                }
            } else {
                // Declared (or the method check above had answered 405) but with no
                // handler in this version: 501, each arriving with its own issue.
                // A link is written by the feed it starts from.
                let writer = if path.links { path.set } else { path.target() };
                let handler = catalogue::feed(writer.name)
                    .and_then(|feed| feed.writer(verb))
                    .ok_or_else(|| not_served(verb.as_str(), path.target().name))?;
                expand::check_expandable(&expand)?;
                Target::Write { path, handler }
            }
        }
    };
    Ok(Routed {
        target,
        options,
        pattern,
    })
}

/// A request's route as a metric label: `/health`, `/metrics`, or the OData resource
/// path's pattern under `/deliveryodata/{area}/` (key values left out); anything
/// else is `(unknown)`, so that labels stay as few as the routes.
pub fn pattern(request_path: &str) -> String {
    match request_path {
        "/health" | "/metrics" => request_path.to_owned(),
        path if path.starts_with("/print/") => "/print/{area}/snapshots/{snapshot}".to_owned(),
        path if path == SERVICE || path.starts_with("/deliveryodata/") => {
            let parsed = resource_path_text(path)
                .ok()
                .and_then(|text| path::parse(&text, catalogue::by_name, catalogue::actions()).ok());
            match parsed {
                Some(resource) => service_label(&resource),
                None => format!("{SERVICE}/{{area}}/(unknown)"),
            }
        }
        _ => "(unknown)".to_owned(),
    }
}

const SERVICE: &str = "/deliveryodata";

/// The label of a resource path of the OData service.
fn service_label(resource: &ResourcePath) -> String {
    format!("{SERVICE}/{{area}}/{}", resource.pattern())
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
        // Links are read; those a feed declares (group memberships) are also added
        // by POST to the collection of links and removed by DELETE of one.
        let navigation = path.steps.last().map_or("", |step| step.navigation.name);
        let mut verbs = vec![Verb::Get, Verb::Head];
        if path.key.is_some()
            && path.steps.len() == 1
            && path.set.writes.links.contains(&navigation)
        {
            verbs.push(if path.steps[0].key.is_some() {
                Verb::Delete
            } else {
                Verb::Post
            });
        }
        return (verbs, format!("the $links of {navigation}"));
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

/// 501: declared, and not served by this version.
fn not_served(method: &str, resource: &str) -> ApiError {
    ApiError::NotImplemented(format!("{method} on {resource} is not served yet"))
}
