//! `$expand` paths resolved against the declarations: which navigation each step
//! follows and which entity set it reaches.

use super::model::{EntitySet, Navigation};
use super::ApiError;

/// One `$expand` path, step by step: the navigation followed and the set reached.
#[derive(Debug, Clone)]
pub struct ExpandPath(pub Vec<(&'static Navigation, &'static EntitySet)>);

impl ExpandPath {
    pub fn first(&self) -> &'static Navigation {
        self.0[0].0
    }
}

/// Resolves every path of `$expand` from `set`; a name that is no navigation of the
/// entity it follows, or a navigation that cannot be expanded, is a 400.
pub fn resolve(
    set: &'static EntitySet,
    paths: &[Vec<String>],
    lookup: impl Fn(&str) -> Option<&'static EntitySet>,
) -> Result<Vec<ExpandPath>, ApiError> {
    let mut resolved = Vec::with_capacity(paths.len());
    for path in paths {
        let mut from = set;
        let mut steps = Vec::with_capacity(path.len());
        for name in path {
            let navigation = from.navigation(name).ok_or_else(|| {
                let names: Vec<&str> = from.navigations.iter().map(|n| n.name).collect();
                ApiError::bad_request(format!(
                    "$expand: {} has no navigation property '{name}'; it has {}",
                    from.type_name,
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ))
            })?;
            let target = lookup(navigation.target).expect("navigation targets are declared");
            steps.push((navigation, target));
            from = target;
        }
        resolved.push(ExpandPath(steps));
    }
    Ok(resolved)
}

/// Refuses navigations that `$expand` cannot follow (many-to-many ones, read by
/// navigation instead).
pub fn check_expandable(paths: &[ExpandPath]) -> Result<(), ApiError> {
    for (navigation, _) in paths.iter().flat_map(|path| &path.0) {
        if navigation.through.is_some() {
            return Err(ApiError::bad_request(format!(
                "$expand: '{}' cannot be expanded; read it by navigation",
                navigation.name
            )));
        }
    }
    Ok(())
}
