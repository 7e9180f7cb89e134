//! The resource path of an OData URL, after the service root and percent-decoding:
//! `ScoringTasks(QuestionID=1L,ResultID=2)/Answer/$value`.

use super::model::{Action, Binding, EntitySet, Navigation};
use super::ApiError;

pub use super::key::{parse_key, Key};

/// What a URL addresses.
#[derive(Debug)]
pub enum ResourcePath {
    ServiceRoot,
    Metadata,
    /// `$batch`: several operations in one multipart request.
    Batch,
    /// An entity set, an entity, or entities reached by navigation from it.
    Entities(EntityPath),
    /// An action: `Results/PurgeResultsByParticipantName`, `Result(5)/Purge`, or a
    /// service action at the root.
    Action(ActionPath),
}

#[derive(Debug)]
pub struct ActionPath {
    pub action: &'static Action,
    /// The collection or entity the action is bound to; `None` for service actions.
    pub binding: Option<EntityPath>,
}

#[derive(Debug)]
pub struct EntityPath {
    pub set: &'static EntitySet,
    pub key: Option<Key>,
    pub steps: Vec<NavigationStep>,
    /// `…/$links/Nav`: the last step's entities are answered as their URLs (the
    /// links between the entity before `$links` and them), not as entities.
    pub links: bool,
    pub suffix: Suffix,
}

#[derive(Debug)]
pub struct NavigationStep {
    pub navigation: &'static Navigation,
    pub target: &'static EntitySet,
    pub key: Option<Key>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Suffix {
    None,
    /// `/$count`: the number of entities, as plain text.
    Count,
    /// `/$value`: the media resource of a media-link entry.
    Value,
}

const LINKS_WITHOUT_NAVIGATION: &str =
    "$links must be followed by a navigation property, as Results(1)/$links/Answers";

/// The longest resource path accepted, in characters.
const MAX_PATH_LEN: usize = 2048;

impl EntityPath {
    /// The entity set of what the path finally addresses.
    pub fn target(&self) -> &'static EntitySet {
        self.steps.last().map_or(self.set, |step| step.target)
    }

    /// Whether the path addresses one entity (rather than a collection).
    pub fn is_single(&self) -> bool {
        match self.steps.last() {
            None => self.key.is_some(),
            Some(step) => step.key.is_some() || !step.navigation.many,
        }
    }
}

impl ResourcePath {
    /// The path's form with key values left out, as `ScoringTasks(…)/ScoringResult`:
    /// one label per kind of request for metrics, made only of declared names, so
    /// that no client can make up new ones.
    pub fn pattern(&self) -> String {
        match self {
            ResourcePath::ServiceRoot => String::new(),
            ResourcePath::Metadata => "$metadata".into(),
            ResourcePath::Batch => "$batch".into(),
            ResourcePath::Entities(path) => path.pattern(),
            ResourcePath::Action(action) => match &action.binding {
                Some(binding) => format!("{}/{}", binding.pattern(), action.action.name),
                None => action.action.name.into(),
            },
        }
    }
}

impl EntityPath {
    fn pattern(&self) -> String {
        let keyed = |key: &Option<Key>| if key.is_some() { "(…)" } else { "" };
        let mut pattern = format!("{}{}", self.set.name, keyed(&self.key));
        let links_at = self.steps.len().saturating_sub(1);
        for (index, step) in self.steps.iter().enumerate() {
            if self.links && index == links_at {
                pattern.push_str("/$links");
            }
            pattern.push('/');
            pattern.push_str(step.navigation.name);
            pattern.push_str(keyed(&step.key));
        }
        pattern.push_str(match self.suffix {
            Suffix::None => "",
            Suffix::Count => "/$count",
            Suffix::Value => "/$value",
        });
        pattern
    }
}

/// Parses `path` (already percent-decoded, without the service root) using `lookup`
/// to find entity sets by name and `actions` for the service's actions.
pub fn parse(
    path: &str,
    lookup: impl Fn(&str) -> Option<&'static EntitySet>,
    actions: &[&'static Action],
) -> Result<ResourcePath, ApiError> {
    let path = path.trim_matches('/');
    if path.len() > MAX_PATH_LEN {
        return Err(ApiError::bad_request(format!(
            "the resource path is longer than {MAX_PATH_LEN} characters"
        )));
    }
    if path.is_empty() {
        return Ok(ResourcePath::ServiceRoot);
    }
    if path == "$metadata" {
        return Ok(ResourcePath::Metadata);
    }
    if path == "$batch" {
        return Ok(ResourcePath::Batch);
    }
    let segments = split_segments(path)?;
    let (last, before) = segments
        .split_last()
        .expect("a non-empty path has a segment");
    if let Some(action) = actions.iter().copied().find(|action| action.name == last) {
        return action_path(action, before, &lookup).map(ResourcePath::Action);
    }
    entity_path(&segments, &lookup, false).map(ResourcePath::Entities)
}

/// The path of `action`, whose binding is written in `segments`.
fn action_path(
    action: &'static Action,
    segments: &[String],
    lookup: &impl Fn(&str) -> Option<&'static EntitySet>,
) -> Result<ActionPath, ApiError> {
    let Some((set_name, binding)) = action.binding else {
        if segments.is_empty() {
            return Ok(ActionPath {
                action,
                binding: None,
            });
        }
        return Err(ApiError::not_found(format!(
            "{} is a service action: POST it to the service root",
            action.name
        )));
    };
    let path = if segments.is_empty() {
        None
    } else {
        Some(entity_path(segments, lookup, true)?)
    };
    let wanted = match binding {
        Binding::Collection => format!("{set_name}/{}", action.name),
        Binding::Entity => format!("{set_name}(<key>)/{}", action.name),
    };
    let fits = path.as_ref().is_some_and(|path| {
        path.target().name == set_name
            && path.suffix == Suffix::None
            && path.is_single() == (binding == Binding::Entity)
    });
    if !fits {
        return Err(ApiError::not_found(format!(
            "the action {} is bound to {set_name}: invoke it as {wanted}",
            action.name
        )));
    }
    Ok(ActionPath {
        action,
        binding: path,
    })
}

/// An entity path from its segments. `type_names` also admits an entity type's name
/// for the first segment (`Result(5)/Purge`, as the spec writes a bound action).
fn entity_path(
    segments: &[String],
    lookup: &impl Fn(&str) -> Option<&'static EntitySet>,
    type_names: bool,
) -> Result<EntityPath, ApiError> {
    let (first, rest) = segments
        .split_first()
        .expect("a non-empty path has a segment");
    let (name, key_text) = split_key(first)?;
    let set = lookup(name)
        .or_else(|| {
            // The singular form names the same set: `Result` is the type of `Results`.
            let plural = lookup(&format!("{name}s"))?;
            (type_names && plural.type_name == name && key_text.is_some()).then_some(plural)
        })
        .ok_or_else(|| {
            ApiError::not_found(format!("there is no resource '{name}' in this service"))
        })?;
    let key = key_text.map(|text| parse_key(set, text)).transpose()?;
    let mut entity_path = EntityPath {
        set,
        key,
        steps: Vec::new(),
        links: false,
        suffix: Suffix::None,
    };
    // After `$links`: exactly one navigation, then at most `$count`.
    let mut links_at = None;
    for (index, segment) in rest.iter().enumerate() {
        let is_last = index + 1 == rest.len();
        if let Some(at) = links_at {
            let allowed = index == at + 1 || (index == at + 2 && segment == "$count");
            if !allowed {
                return Err(ApiError::bad_request(
                    "$links is followed by one navigation property (and optionally $count), nothing more",
                ));
            }
        }
        match segment.as_str() {
            "$links" => {
                if links_at.is_some() {
                    return Err(ApiError::bad_request("the path has $links twice"));
                }
                if is_last {
                    return Err(ApiError::bad_request(LINKS_WITHOUT_NAVIGATION));
                }
                if !entity_path.is_single() {
                    return Err(ApiError::bad_request(
                        "$links follows one entity; address it by its key first",
                    ));
                }
                links_at = Some(index);
                entity_path.links = true;
            }
            name if links_at.is_some_and(|at| at + 1 == index) && name.starts_with('$') => {
                return Err(ApiError::bad_request(LINKS_WITHOUT_NAVIGATION));
            }
            "$count" | "$value" if !is_last => {
                return Err(ApiError::bad_request(format!(
                    "'{segment}' must be the last segment of the path"
                )));
            }
            "$count" => {
                if entity_path.is_single() {
                    return Err(ApiError::bad_request(
                        "$count applies to a collection, not to a single entity",
                    ));
                }
                entity_path.suffix = Suffix::Count;
            }
            "$value" => {
                if !entity_path.is_single() {
                    return Err(ApiError::bad_request(
                        "$value applies to a single entity; give its key",
                    ));
                }
                if entity_path.target().media.is_none() {
                    return Err(ApiError::bad_request(format!(
                        "{} entities are not media-link entries, so they have no $value",
                        entity_path.target().name
                    )));
                }
                entity_path.suffix = Suffix::Value;
            }
            _ => {
                if !entity_path.is_single() {
                    return Err(ApiError::bad_request(format!(
                        "'{segment}' follows a collection; address one entity by its key first"
                    )));
                }
                let (name, key_text) = split_key(segment)?;
                let from = entity_path.target();
                let navigation = from.navigation(name).ok_or_else(|| {
                    ApiError::not_found(format!(
                        "{} has no navigation property '{name}'",
                        from.type_name
                    ))
                })?;
                let target = lookup(navigation.target).expect("navigation targets are declared");
                if key_text.is_some() && !navigation.many {
                    return Err(ApiError::bad_request(format!(
                        "'{name}' is a single entity and takes no key"
                    )));
                }
                let key = key_text.map(|text| parse_key(target, text)).transpose()?;
                entity_path.steps.push(NavigationStep {
                    navigation,
                    target,
                    key,
                });
            }
        }
    }
    Ok(entity_path)
}

/// Splits on `/` outside quotes and parentheses.
fn split_segments(path: &str) -> Result<Vec<String>, ApiError> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let (mut in_quote, mut depth) = (false, 0usize);
    for c in path.chars() {
        match c {
            '\'' => in_quote = !in_quote,
            '(' if !in_quote => depth += 1,
            ')' if !in_quote => depth = depth.saturating_sub(1),
            '/' if !in_quote && depth == 0 => {
                if current.is_empty() {
                    return Err(ApiError::bad_request(
                        "the path has an empty segment ('//')",
                    ));
                }
                segments.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if in_quote {
        return Err(ApiError::bad_request(
            "the path has an unterminated string literal",
        ));
    }
    segments.push(current);
    Ok(segments)
}

/// `Name(key)` into `("Name", Some("key"))`; `Name` into `("Name", None)`.
fn split_key(segment: &str) -> Result<(&str, Option<&str>), ApiError> {
    match segment.find('(') {
        None => Ok((segment, None)),
        Some(open) => {
            let inner = segment[open + 1..].strip_suffix(')').ok_or_else(|| {
                ApiError::bad_request(format!(
                    "the key predicate of '{segment}' is not closed by ')'"
                ))
            })?;
            Ok((&segment[..open], Some(inner)))
        }
    }
}
