//! Points on a picture: the IMS examples `select_point.xml` (mark Edinburgh on a
//! map) and `position_object.xml` (place three airports) read as points scored
//! by their areas; the areas never shown in the markup; areas of every shape,
//! percentages and the picture's size from the image; what skips such an item.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{ims, package_with_pictures, picture};
use scoredesk_qti::{Area, ChoiceScoring, Package, Response};

fn uk(item: String) -> Package {
    package_with_pictures(
        "item.xml",
        item,
        &[
            ("images/uk.png", picture(196, 280)),
            ("images/airport.png", picture(16, 16)),
        ],
    )
}

fn circle(x: f64, y: f64, r: f64, value: f64) -> Area {
    Area {
        shape: "circle".into(),
        coords: vec![x, y, r],
        value,
    }
}

#[test]
fn the_ims_select_point_is_one_point_scored_by_the_circle_round_edinburgh() {
    let read = uk(ims("select_point.xml"));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    assert_eq!(item.title, "Where is Edinburgh?");
    assert_eq!(item.max_score, 1);
    assert_eq!(
        item.response,
        Response::Points {
            width: 196.0,
            height: 280.0,
            most: 1,
            areas: vec![circle(102.0, 113.0, 16.0, 1.0)],
            scoring: ChoiceScoring::MapResponse {
                default_value: 0.0,
                lower_bound: None,
                upper_bound: None
            },
        }
    );
    assert!(
        item.markup.contains("Mark Edinburgh on this map"),
        "{}",
        item.markup
    );
    assert!(item
        .markup
        .contains("<div class=\"stage\"><img src=\"data:image/svg+xml;base64,"));
    assert!(item.markup.contains("Mark the place with a cross (×)."));
    // The key is not drawn: the picture's SVG holds the picture and nothing else.
    let svg = common::svg_of(&item.markup);
    assert!(svg.contains("viewBox=\"0 0 196 280\""), "{svg}");
    assert!(!svg.contains("<circle"), "{svg}");
}

#[test]
fn the_ims_position_object_places_three_airports_on_the_stage_picture() {
    let read = uk(ims("position_object.xml"));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    assert_eq!(item.max_score, 3);
    let Response::Points {
        width,
        height,
        most,
        areas,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response)
    };
    // The stage's object says 206 wide: its word, not the image's, as QTI has it.
    assert_eq!((*width, *height, *most), (206.0, 280.0, 3));
    assert_eq!(
        areas,
        &[
            circle(118.0, 184.0, 12.0, 1.0),
            circle(150.0, 235.0, 12.0, 1.0),
            circle(96.0, 114.0, 12.0, 1.0)
        ]
    );
    assert!(
        item.markup
            .contains("<p class=\"place\">Place <img src=\"data:image/png;base64,"),
        "{}",
        item.markup
    );
    assert!(item
        .markup
        .contains("Mark at most 3 places, each with a cross (×)."));
    assert_eq!(item.markup.matches("class=\"stage\"").count(), 1);
}

/// A select point item of `areas` (`areaMapEntry` elements) under `mapping`'s
/// attributes, its object `sized` or not.
fn select(areas: &str, mapping: &str, sized: bool, processing: &str) -> String {
    let size = if sized {
        r#" width="200" height="100""#
    } else {
        ""
    };
    format!(
        r#"<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="s" title="S">
<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="point">
<areaMapping {mapping}>{areas}</areaMapping></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
<itemBody><selectPointInteraction responseIdentifier="RESPONSE" maxChoices="0">
<object type="image/png" data="images/uk.png"{size}>map</object></selectPointInteraction></itemBody>
{processing}</assessmentItem>"#
    )
}

const TEMPLATE: &str = r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response_point"/>"#;

#[test]
fn areas_of_every_shape_and_percentages_are_read_in_the_pictures_pixels() {
    let areas = r#"<areaMapEntry shape="rect" coords="10,10,50%,50%" mappedValue="2"/>
<areaMapEntry shape="ellipse" coords="150,50,20,10" mappedValue="1"/>
<areaMapEntry shape="poly" coords="0,100,20,80,40,100" mappedValue="-1"/>
<areaMapEntry shape="default" coords="" mappedValue="0.5"/>"#;
    let read = uk(select(
        areas,
        r#"defaultValue="-1" upperBound="3""#,
        true,
        TEMPLATE,
    ));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Points {
        areas,
        most,
        scoring,
        ..
    } = &item.response
    else {
        panic!()
    };
    assert_eq!(*most, 0);
    assert_eq!(areas[0].coords, [10.0, 10.0, 100.0, 50.0]);
    assert_eq!(areas[2].coords, [0.0, 100.0, 20.0, 80.0, 40.0, 100.0]);
    assert_eq!(areas[3].shape, "default");
    assert_eq!(
        *scoring,
        ChoiceScoring::MapResponse {
            default_value: -1.0,
            lower_bound: None,
            upper_bound: Some(3.0)
        }
    );
    // Every positive area once (2 + 1 + 0.5 = 3.5), held to the upper bound.
    assert_eq!(item.max_score, 3);
    assert!(item.markup.contains("Mark each place with a cross (×)."));
}

#[test]
fn an_unsized_object_takes_the_size_of_its_image() {
    let read = uk(select(
        r#"<areaMapEntry shape="circle" coords="1,2,3" mappedValue="1"/>"#,
        "",
        false,
        TEMPLATE,
    ));
    let Response::Points { width, height, .. } = &read.items[0].response else {
        panic!("{:?}", read.skipped)
    };
    assert_eq!((*width, *height), (196.0, 280.0));
}

#[test]
fn points_that_cannot_be_scored_by_areas_skip_the_item_naming_why() {
    let entry = r#"<areaMapEntry shape="circle" coords="1,2,3" mappedValue="1"/>"#;
    let cases = [
        (
            select(
                entry,
                "",
                true,
                r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#,
            ),
            "scored by its areas (map_response_point)",
        ),
        (
            select(
                r#"<areaMapEntry shape="circle" coords="1,2" mappedValue="1"/>"#,
                "",
                true,
                TEMPLATE,
            ),
            "coords=\"1,2\"> that is not an area",
        ),
        (
            select(
                r#"<areaMapEntry shape="star" coords="1,2,3" mappedValue="1"/>"#,
                "",
                true,
                TEMPLATE,
            ),
            "shape=\"star\"",
        ),
        (
            select(
                r#"<areaMapEntry shape="circle" coords="1,2,3" mappedValue="0"/>"#,
                "",
                true,
                TEMPLATE,
            ),
            "no area of the picture is worth anything",
        ),
        (
            select(&entry.repeat(101), "", true, TEMPLATE),
            "more than 100 areas",
        ),
        (
            select(
                &format!(
                    r#"<areaMapEntry shape="poly" coords="{}" mappedValue="1"/>"#,
                    vec!["1,1"; 1001].join(",")
                ),
                "",
                true,
                TEMPLATE,
            ),
            "that is not an area",
        ),
        (
            select(entry, "", true, TEMPLATE)
                .replace("baseType=\"point\"", "baseType=\"identifier\""),
            "not of base type point",
        ),
    ];
    for (item, reason) in cases {
        let read = uk(item);
        assert!(read.items.is_empty());
        assert!(
            read.skipped[0].reason.contains(reason),
            "{} lacks {reason}",
            read.skipped[0].reason
        );
    }
    // Custom processing that sets the score from mapResponsePoint alone is the template.
    let custom = r#"<responseProcessing><setOutcomeValue identifier="SCORE"><mapResponsePoint identifier="RESPONSE"/></setOutcomeValue></responseProcessing>"#;
    let read = uk(select(entry, "", true, custom));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
}
