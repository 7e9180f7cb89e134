//! The entity data model as declarations: every feed is an [`EntitySet`] that names
//! its table, key, properties and navigation properties. `$metadata`, the service
//! document, URL parsing, `$filter`, `$orderby`, `$expand` and the SQL behind them are
//! all driven from these declarations.

use super::edm::EdmType;

/// The namespace of the entity types in `$metadata` and in verbose JSON.
pub const NAMESPACE: &str = "ScoreDesk";

/// A feed and the entity type it holds.
#[derive(Debug)]
pub struct EntitySet {
    /// The feed's name in URLs: `ScoringTasks`.
    pub name: &'static str,
    /// The entity type's name: `ScoringTask`.
    pub type_name: &'static str,
    pub table: &'static str,
    /// Key property names, in the order composite keys are written.
    pub key: &'static [&'static str],
    pub properties: &'static [Property],
    pub navigations: &'static [Navigation],
    /// The property whose value is the entity's concurrency token (its ETag):
    /// declared `ConcurrencyMode="Fixed"`, sent as `ETag`, checked on `If-Match`.
    pub concurrency: Option<&'static str>,
    /// Properties `$filter` and `$orderby` may name on this feed.
    pub filterable: &'static [&'static str],
    /// Set for media-link entries: where the media resource and its type are.
    pub media: Option<Media>,
    /// The methods beyond GET and HEAD that the feed takes. Any other is a 405.
    pub writes: Writes,
}

/// An HTTP method as OData uses it (`MERGE` is version 2's PATCH).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    Head,
    Post,
    Put,
    Patch,
    Merge,
    Delete,
}

impl Verb {
    /// The verb of an HTTP method; `None` for methods OData does not use.
    pub fn from_method(method: &str) -> Option<Verb> {
        Some(match method {
            "GET" => Verb::Get,
            "HEAD" => Verb::Head,
            "POST" => Verb::Post,
            "PUT" => Verb::Put,
            "PATCH" => Verb::Patch,
            "MERGE" => Verb::Merge,
            "DELETE" => Verb::Delete,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::Head => "HEAD",
            Verb::Post => "POST",
            Verb::Put => "PUT",
            Verb::Patch => "PATCH",
            Verb::Merge => "MERGE",
            Verb::Delete => "DELETE",
        }
    }

    /// GET and HEAD read; every other verb writes.
    pub fn reads(self) -> bool {
        matches!(self, Verb::Get | Verb::Head)
    }
}

/// The write methods a feed takes: on one entity (by key) and on the collection.
#[derive(Debug, Clone, Copy)]
pub struct Writes {
    pub entity: &'static [Verb],
    pub collection: &'static [Verb],
    /// Navigations whose links a client adds (`POST Set(<key>)/$links/Nav`) and
    /// removes (`DELETE Set(<key>)/$links/Nav(<key>)`); our extension, for group
    /// memberships.
    pub links: &'static [&'static str],
}

/// A feed that is only read.
pub const READ_ONLY: Writes = Writes {
    entity: &[],
    collection: &[],
    links: &[],
};

impl Writes {
    /// Every method a resource takes, reads first: what an `Allow` header lists.
    pub fn allowed(&self, single: bool) -> Vec<Verb> {
        let mut verbs = vec![Verb::Get, Verb::Head];
        verbs.extend_from_slice(if single { self.entity } else { self.collection });
        verbs
    }
}

#[derive(Debug)]
pub struct Property {
    pub name: &'static str,
    /// The column in the entity set's table; empty for a value computed per request
    /// (such as a signed link), which the feed fills in.
    pub column: &'static str,
    pub edm: EdmType,
    pub nullable: bool,
    /// For strings a client writes: the most characters accepted (`MaxLength` in
    /// `$metadata`); longer values are a 400.
    pub max_length: Option<u32>,
    /// No two entities of one customer area share a value (a unique index says so):
    /// `Nav/Property eq value` then names at most one target, which the store
    /// resolves before it reads, so that the navigation's column can lead an index.
    pub unique_in_area: bool,
}

impl Property {
    /// The same property, declared unique within a customer area.
    pub const fn unique_in_area(self) -> Property {
        Property {
            unique_in_area: true,
            ..self
        }
    }

    /// The same property, accepting at most `characters` characters.
    pub const fn max_length(self, characters: u32) -> Property {
        Property {
            max_length: Some(characters),
            ..self
        }
    }
}

/// A navigation property: rows of `target` whose columns equal this row's columns.
#[derive(Debug)]
pub struct Navigation {
    pub name: &'static str,
    /// The target entity set's name.
    pub target: &'static str,
    /// A collection (`true`) or at most one entity.
    pub many: bool,
    /// `(column of this table, column of the target's table)` pairs.
    pub on: &'static [(&'static str, &'static str)],
    /// A to-one navigation whose target always exists (a non-null foreign key).
    pub required: bool,
    /// Properties of a to-one target copied onto this entity's row and kept equal by
    /// every writer, as `(target property, local column)`: `$filter` and `$orderby`
    /// on them read the local column, so one index can serve the query.
    pub copied: &'static [(&'static str, &'static str)],
    /// For many-to-many: the link table, its column matching `on`'s first column and
    /// its column matching the target's key column (`on` then names the target's key).
    pub through: Option<Through>,
    /// A column of the target that is null on the members the navigation holds now;
    /// the rows where it is set are former members (a question's replaced rubrics),
    /// reached through the navigation only by their key.
    pub current: Option<&'static str>,
}

#[derive(Debug)]
pub struct Through {
    pub table: &'static str,
    /// Link column equal to this row's `on.0` column.
    pub near: &'static str,
    /// Link column equal to the target's `on.1` column.
    pub far: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct Media {
    pub content_column: &'static str,
    /// The column holding the media type, or the fixed type of every entity.
    pub media_type: MediaType,
}

#[derive(Debug, Clone, Copy)]
pub enum MediaType {
    Column(&'static str),
    Fixed(&'static str),
}

impl EntitySet {
    pub fn property(&self, name: &str) -> Option<&'static Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    pub fn navigation(&self, name: &str) -> Option<&'static Navigation> {
        self.navigations.iter().find(|n| n.name == name)
    }

    pub fn key_properties(&self) -> impl Iterator<Item = &'static Property> + '_ {
        self.key.iter().map(|name| {
            self.property(name)
                .expect("key properties are declared properties")
        })
    }

    pub fn qualified_type(&self) -> String {
        format!("{NAMESPACE}.{}", self.type_name)
    }

    /// The properties stored in the set's table (not computed per request), in
    /// declaration order: what a read of a row returns.
    pub fn stored_properties(&self) -> Vec<&'static Property> {
        self.properties
            .iter()
            .filter(|p| !p.column.is_empty())
            .collect()
    }
}

impl Navigation {
    /// Whether `target` (this navigation's) can be read in its source's own
    /// statement, through a LEFT JOIN: at most one entity, reached by equal columns
    /// that are the target's whole key (so the join can never repeat a source row),
    /// with no former members to leave out.
    pub fn joinable(&self, target: &EntitySet) -> bool {
        let mut far: Vec<&str> = self.on.iter().map(|(_, far)| *far).collect();
        let mut key: Vec<&str> = target.key_properties().map(|p| p.column).collect();
        far.sort_unstable();
        key.sort_unstable();
        !self.many && self.through.is_none() && self.current.is_none() && far == key
    }

    /// The kinds of the values this navigation joins on, from `source`: as the source
    /// declares its column, or else as the target declares its own.
    pub fn join_kinds(
        &self,
        source: &EntitySet,
        lookup: impl Fn(&str) -> Option<&'static EntitySet>,
    ) -> Vec<EdmType> {
        let target = lookup(self.target).expect("navigation targets are declared");
        self.on
            .iter()
            .map(|(near, far)| {
                let declared = |set: &EntitySet, column: &str| {
                    set.properties
                        .iter()
                        .find(|p| p.column == column)
                        .map(|p| p.edm)
                };
                declared(source, near)
                    .or_else(|| declared(target, far))
                    .expect("every join column is a declared property on one side")
            })
            .collect()
    }
}

/// Shorthand for declaring a property.
pub const fn prop(
    name: &'static str,
    column: &'static str,
    edm: EdmType,
    nullable: bool,
) -> Property {
    Property {
        name,
        column,
        edm,
        nullable,
        max_length: None,
        unique_in_area: false,
    }
}

/// Shorthand for a to-one navigation.
pub const fn one(
    name: &'static str,
    target: &'static str,
    on: &'static [(&'static str, &'static str)],
    required: bool,
) -> Navigation {
    Navigation {
        name,
        target,
        many: false,
        on,
        required,
        copied: &[],
        through: None,
        current: None,
    }
}

/// Shorthand for a collection navigation.
pub const fn many(
    name: &'static str,
    target: &'static str,
    on: &'static [(&'static str, &'static str)],
) -> Navigation {
    Navigation {
        name,
        target,
        many: true,
        on,
        required: false,
        copied: &[],
        through: None,
        current: None,
    }
}

/// As [`many`], holding now only the targets whose `column` is null (see
/// [`Navigation::current`]).
pub const fn many_current(
    name: &'static str,
    target: &'static str,
    on: &'static [(&'static str, &'static str)],
    column: &'static str,
) -> Navigation {
    let mut navigation = many(name, target, on);
    navigation.current = Some(column);
    navigation
}

/// A service operation (`FunctionImport` in `$metadata`).
#[derive(Debug)]
pub struct Action {
    pub name: &'static str,
    /// The entity set it is bound to, and whether to the collection or to one entity.
    pub binding: Option<(&'static str, Binding)>,
    pub parameters: &'static [(&'static str, &'static str)],
    /// An Edm type name, a complex type of the namespace, or none.
    pub returns: Option<&'static str>,
    /// A function (our extension's `AssessmentStatistics`, `ScoringProgress`): it
    /// changes nothing a client sees, and is called with GET (`m:HttpMethod="GET"`,
    /// its parameters in the URL); who may call it is the role table's
    /// (`model::access::FUNCTIONS`). Otherwise an action, POSTed, for
    /// administrators.
    pub function: bool,
}

impl Action {
    /// The HTTP method it is called with.
    pub fn http_method(&self) -> Verb {
        if self.function {
            Verb::Get
        } else {
            Verb::Post
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    Collection,
    Entity,
}

/// A complex type (a structured value that is not an entity).
#[derive(Debug)]
pub struct ComplexType {
    pub name: &'static str,
    pub properties: &'static [(&'static str, &'static str)],
}
