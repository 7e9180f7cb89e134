//! `$metadata`: the EDMX (OData version 3, CSDL 2009/11) document, generated from
//! the same declarations that drive the feeds, so that a generic client can build
//! its model from it alone.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use quick_xml::Writer;

use super::edm::EdmType;
use super::model::{Action, Binding, ComplexType, EntitySet, Navigation, NAMESPACE};

const EDMX: &str = "http://schemas.microsoft.com/ado/2007/06/edmx";
const METADATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";
const EDM: &str = "http://schemas.microsoft.com/ado/2009/11/edm";
const CONTAINER: &str = "DeliveryOData";

/// The association (relationship) name of a navigation property.
fn association(set: &EntitySet, navigation: &Navigation) -> String {
    format!("{}_{}", set.type_name, navigation.name)
}

/// Role names of both ends; they must differ.
fn roles(set: &EntitySet, navigation: &Navigation) -> (String, String) {
    let from = set.type_name.to_owned();
    let to = if navigation.name == from {
        format!("{}Target", navigation.name)
    } else {
        navigation.name.to_owned()
    };
    (from, to)
}

fn multiplicity(navigation: &Navigation) -> &'static str {
    match (navigation.many, navigation.required) {
        (true, _) => "*",
        (false, true) => "1",
        (false, false) => "0..1",
    }
}

struct Xml(Writer<Vec<u8>>);

impl Xml {
    fn open(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let mut start = BytesStart::new(name);
        for attribute in attributes {
            start.push_attribute(*attribute);
        }
        self.0
            .write_event(Event::Start(start))
            .expect("writing to memory cannot fail");
    }

    fn empty(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let mut start = BytesStart::new(name);
        for attribute in attributes {
            start.push_attribute(*attribute);
        }
        self.0
            .write_event(Event::Empty(start))
            .expect("writing to memory cannot fail");
    }

    fn close(&mut self, name: &str) {
        self.0
            .write_event(Event::End(BytesEnd::new(name)))
            .expect("writing to memory cannot fail");
    }
}

/// The EDMX document for `sets`, `actions` and `complex_types`.
pub fn document(
    sets: &[&EntitySet],
    actions: &[&Action],
    complex_types: &[&ComplexType],
    by_name: impl Fn(&str) -> Option<&'static EntitySet>,
) -> String {
    let mut xml = Xml(Writer::new_with_indent(Vec::new(), b' ', 2));
    xml.0
        .write_event(Event::Decl(BytesDecl::new(
            "1.0",
            Some("utf-8"),
            Some("yes"),
        )))
        .expect("writing to memory cannot fail");
    xml.open("edmx:Edmx", &[("Version", "1.0"), ("xmlns:edmx", EDMX)]);
    xml.open(
        "edmx:DataServices",
        &[
            ("xmlns:m", METADATA),
            ("m:DataServiceVersion", "3.0"),
            ("m:MaxDataServiceVersion", "3.0"),
        ],
    );
    xml.open("Schema", &[("Namespace", NAMESPACE), ("xmlns", EDM)]);
    for set in sets {
        let mut attributes = vec![("Name", set.type_name)];
        if set.media.is_some() {
            attributes.push(("m:HasStream", "true"));
        }
        xml.open("EntityType", &attributes);
        xml.open("Key", &[]);
        for key in set.key {
            xml.empty("PropertyRef", &[("Name", key)]);
        }
        xml.close("Key");
        for property in set.properties {
            let edm = property.edm.to_string();
            let max_length = property.max_length.map(|n| n.to_string());
            let mut attributes = vec![
                ("Name", property.name),
                ("Type", edm.as_str()),
                ("Nullable", if property.nullable { "true" } else { "false" }),
            ];
            if let Some(max_length) = &max_length {
                attributes.push(("MaxLength", max_length.as_str()));
            }
            // Times are kept to the millisecond; without the facet a client may take
            // them to the second (pyslet does) and send back a changed value.
            if property.edm == EdmType::DateTime {
                attributes.push(("Precision", "3"));
            }
            if set.concurrency == Some(property.name) {
                attributes.push(("ConcurrencyMode", "Fixed"));
            }
            xml.empty("Property", &attributes);
        }
        for navigation in set.navigations {
            let relationship = format!("{NAMESPACE}.{}", association(set, navigation));
            let (from, to) = roles(set, navigation);
            xml.empty(
                "NavigationProperty",
                &[
                    ("Name", navigation.name),
                    ("Relationship", &relationship),
                    ("FromRole", &from),
                    ("ToRole", &to),
                ],
            );
        }
        xml.close("EntityType");
    }
    for complex in complex_types {
        xml.open("ComplexType", &[("Name", complex.name)]);
        for (name, edm) in complex.properties {
            xml.empty("Property", &[("Name", name), ("Type", edm)]);
        }
        xml.close("ComplexType");
    }
    for set in sets {
        for navigation in set.navigations {
            let target = by_name(navigation.target).expect("navigation targets are declared");
            let (from, to) = roles(set, navigation);
            xml.open("Association", &[("Name", &association(set, navigation))]);
            xml.empty(
                "End",
                &[
                    ("Type", &set.qualified_type()),
                    ("Role", &from),
                    ("Multiplicity", "*"),
                ],
            );
            xml.empty(
                "End",
                &[
                    ("Type", &target.qualified_type()),
                    ("Role", &to),
                    ("Multiplicity", multiplicity(navigation)),
                ],
            );
            xml.close("Association");
        }
    }
    xml.open(
        "EntityContainer",
        &[("Name", CONTAINER), ("m:IsDefaultEntityContainer", "true")],
    );
    for set in sets {
        xml.empty(
            "EntitySet",
            &[("Name", set.name), ("EntityType", &set.qualified_type())],
        );
    }
    for set in sets {
        for navigation in set.navigations {
            let (from, to) = roles(set, navigation);
            let name = association(set, navigation);
            let relationship = format!("{NAMESPACE}.{name}");
            xml.open(
                "AssociationSet",
                &[("Name", &name), ("Association", &relationship)],
            );
            xml.empty("End", &[("Role", &from), ("EntitySet", set.name)]);
            xml.empty("End", &[("Role", &to), ("EntitySet", navigation.target)]);
            xml.close("AssociationSet");
        }
    }
    for action in actions {
        let mut attributes: Vec<(&str, String)> = vec![
            ("Name", action.name.to_owned()),
            ("m:HttpMethod", action.http_method().as_str().to_owned()),
        ];
        if let Some(returns) = action.returns {
            attributes.push(("ReturnType", returns.to_owned()));
        }
        if action.binding.is_some() {
            attributes.push(("IsBindable", "true".to_owned()));
            attributes.push(("IsSideEffecting", "true".to_owned()));
        }
        let borrowed: Vec<(&str, &str)> =
            attributes.iter().map(|(k, v)| (*k, v.as_str())).collect();
        xml.open("FunctionImport", &borrowed);
        if let Some((set_name, binding)) = action.binding {
            let set = by_name(set_name).expect("bound actions name a declared set");
            let binding_type = match binding {
                Binding::Collection => format!("Collection({})", set.qualified_type()),
                Binding::Entity => set.qualified_type(),
            };
            xml.empty(
                "Parameter",
                &[("Name", set_name), ("Type", &binding_type), ("Mode", "In")],
            );
        }
        for (name, edm) in action.parameters {
            xml.empty(
                "Parameter",
                &[("Name", name), ("Type", edm), ("Mode", "In")],
            );
        }
        xml.close("FunctionImport");
    }
    xml.close("EntityContainer");
    xml.close("Schema");
    xml.close("edmx:DataServices");
    xml.close("edmx:Edmx");
    String::from_utf8(xml.0.into_inner()).expect("the writer wrote UTF-8")
}
