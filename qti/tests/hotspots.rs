//! Hotspot interactions: the IMS example `hotspot.xml` (which of four circled
//! airports is Glasgow) read as a single choice of its areas, each area outlined
//! and lettered on one SVG that holds the picture; areas of other shapes and
//! percentage coordinates placed where the item says; a picture the package lacks
//! skips the item naming it.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{ims, package_with_pictures, picture, svg_of, zip_bytes};
use scoredesk_qti::{read_package, ChoiceScoring, Package, Response};

fn package_of(item: String, picture: Option<Vec<u8>>) -> Package {
    let pictures: Vec<(&str, Vec<u8>)> = picture
        .into_iter()
        .map(|png| ("images/ukair.png", png))
        .collect();
    package_with_pictures("hotspot.xml", item, &pictures)
}

#[test]
fn the_ims_hotspot_item_is_a_choice_of_lettered_areas_on_its_picture() {
    let read = package_of(ims("hotspot.xml"), Some(picture(206, 280)));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Choice {
        multiple, choices, ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert!(!multiple);
    let choices: Vec<(&str, bool)> = choices
        .iter()
        .map(|c| (c.text.as_str(), c.correct))
        .collect();
    assert_eq!(
        choices,
        [
            ("the area marked A", true),
            ("the area marked B", false),
            ("the area marked C", false),
            ("the area marked D", false)
        ]
    );
    assert_eq!(item.max_score, 1);
    assert!(item.markup.contains("Which one is Glasgow?"), "the prompt");
    // Shown larger (a longer side of 360), the areas where the item puts them.
    assert!(
        item.markup
            .contains(r#"alt="UK Map" width="264.86" height="360""#),
        "{}",
        item.markup
    );
    let svg = svg_of(&item.markup);
    assert!(svg.contains(r#"viewBox="0 0 206 280""#), "{svg}");
    assert!(
        svg.contains(r#"<image href="data:image/png;base64,"#),
        "the picture itself, inside: {svg}"
    );
    assert!(svg.contains(r#"<circle cx="77" cy="115" r="8"/>"#), "{svg}");
    assert!(svg.contains(r#"<circle cx="96" cy="114" r="8"/>"#), "{svg}");
    for letter in ["A", "B", "C", "D"] {
        assert!(svg.contains(&format!(">{letter}</text>")), "{svg}");
    }
}

#[test]
fn areas_of_every_shape_are_outlined_where_the_item_puts_them() {
    let item = ims("hotspot.xml").replace(
        r#"<hotspotChoice shape="circle" coords="118,184,8" identifier="B"/>"#,
        r#"<hotspotChoice shape="rect" coords="10,20,50,60" identifier="B"/><hotspotChoice shape="poly" coords="0,0,30,0,30,30" identifier="E" hotspotLabel="Belfast"/><hotspotChoice shape="ellipse" coords="50%,50%,10,5" identifier="F"/>"#,
    );
    let read = package_of(item, Some(picture(206, 280)));
    let item = &read.items[0];
    let Response::Choice { choices, .. } = &item.response else {
        panic!("{:?}", item.response);
    };
    assert_eq!(choices[2].text, "Belfast", "a label is the area's words");
    let svg = svg_of(&item.markup);
    assert!(
        svg.contains(r#"<rect x="10" y="20" width="40" height="40"/>"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"<polygon points="0,0 30,0 30,30"/>"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"<ellipse cx="103" cy="140" rx="10" ry="5"/>"#),
        "{svg}"
    );
    // Each letter in its area's middle.
    assert!(svg.contains(r#"<circle cx="30" cy="40""#), "{svg}");
    assert!(
        svg.contains(r##"<circle cx="77" cy="115" r="7" fill="#fff""##),
        "{svg}"
    );
}

#[test]
fn a_hotspot_whose_picture_is_missing_is_skipped_naming_it() {
    let read = package_of(ims("hotspot.xml"), None);
    assert!(read.items.is_empty());
    assert!(
        read.skipped[0]
            .reason
            .contains("the package has no file images/ukair.png"),
        "{:?}",
        read.skipped
    );
}

/// A hotspot without its picture skips its item alone; an SVG picture of no
/// written size is drawn as large as its areas reach.
#[test]
fn a_hotspot_without_a_picture_or_its_size_is_named_or_sized_by_its_areas() {
    let without = ims("hotspot.xml").replace(
        r#"<object type="image/png" width="206" height="280" data="images/ukair.png">UK Map</object>"#,
        "",
    );
    let read = package_of(without, Some(picture(206, 280)));
    assert!(read.items.is_empty());
    assert!(
        read.skipped[0].reason.contains("without its picture"),
        "{:?}",
        read.skipped
    );
    let svg_picture =
        br#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>"#;
    let no_size = ims("hotspot.xml").replace(r#" width="206" height="280""#, "");
    let read = package_of(no_size, Some(svg_picture.to_vec()));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let svg = svg_of(&read.items[0].markup);
    // The farthest area reaches x 150 + and y 235: a tenth more.
    assert!(svg.contains(r#"viewBox="0 0 165 258.5""#), "{svg}");
}

#[test]
fn the_ims_graphic_order_puts_the_lettered_airports_in_order() {
    let read = package_of(ims("graphic_order.xml"), Some(picture(206, 280)));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Matching {
        rows,
        options,
        pairs,
        scoring,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert_eq!(
        rows,
        &["Position 1", "Position 2", "Position 3", "Position 4"]
    );
    let options: Vec<&str> = options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        options,
        [
            "the area marked A",
            "the area marked B",
            "the area marked C",
            "the area marked D"
        ]
    );
    // A (Glasgow), then D (Edinburgh), C (London), B (Manchester).
    let order: Vec<(usize, usize)> = pairs.iter().map(|p| (p.row, p.option)).collect();
    assert_eq!(order, [(0, 0), (1, 3), (2, 2), (3, 1)]);
    assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
    assert_eq!(item.max_score, 1);
    assert!(item
        .markup
        .contains("Mark the airports shown on the map according to Lorna"));
    let svg = svg_of(&item.markup);
    assert!(
        svg.contains(r#"<circle cx="150" cy="235" r="8"/>"#),
        "{svg}"
    );
    assert!(
        item.markup.contains("<li>the area marked D</li>"),
        "{}",
        item.markup
    );
    // Without its picture: skipped, naming the file.
    let read = package_of(ims("graphic_order.xml"), None);
    assert!(
        read.skipped[0].reason.contains("images/ukair.png"),
        "{:?}",
        read.skipped
    );
}

#[test]
fn the_ims_graphic_associate_is_a_choice_of_routes_between_areas() {
    let read = package_of(ims("graphic_associate.xml"), Some(picture(206, 280)));
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Choice {
        multiple,
        max_choices,
        choices,
        scoring,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert!(*multiple);
    assert_eq!(*max_choices, 3, "maxAssociations");
    let pairs: Vec<(&str, bool, Option<f64>)> = choices
        .iter()
        .map(|c| (c.text.as_str(), c.correct, c.mapped_value))
        .collect();
    assert_eq!(pairs.len(), 6);
    assert_eq!(
        pairs[0],
        ("the area marked A – the area marked B", false, Some(-1.0))
    );
    assert_eq!(
        pairs[3],
        ("the area marked B – the area marked C", true, Some(1.0))
    );
    assert_eq!(
        pairs[5],
        ("the area marked C – the area marked D", true, Some(1.0))
    );
    assert!(matches!(
        scoring,
        ChoiceScoring::MapResponse {
            lower_bound: Some(0.0),
            ..
        }
    ));
    assert_eq!(item.max_score, 2, "two routes worth 1 each");
    let svg = svg_of(&item.markup);
    for letter in ["A", "B", "C", "D"] {
        assert!(svg.contains(&format!(">{letter}</text>")), "{svg}");
    }
    assert!(
        item.markup
            .contains("<li>the area marked B – the area marked D</li>"),
        "{}",
        item.markup
    );
}

#[test]
fn the_ims_graphic_gap_match_places_pictures_on_lettered_areas() {
    let manifest = r#"<manifest identifier="m"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="gaps.xml"/></resources></manifest>"#;
    let mut entries: Vec<(&str, Vec<u8>)> = vec![
        ("imsmanifest.xml", manifest.as_bytes().to_vec()),
        ("gaps.xml", ims("graphic_gap_match.xml").into_bytes()),
        ("images/ukairtags.png", picture(206, 280)),
    ];
    let tags = ["CBG", "EBG", "EDI", "GLA", "MAN", "MCH"];
    let names: Vec<String> = tags.iter().map(|t| format!("images/{t}.png")).collect();
    for name in &names {
        entries.push((name.as_str(), picture(20, 9)));
    }
    let read = read_package(&zip_bytes(&entries)).unwrap();
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let item = &read.items[0];
    let Response::Matching {
        rows,
        options,
        pairs,
        scoring,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert_eq!(
        rows,
        &[
            "the area marked A",
            "the area marked B",
            "the area marked C"
        ]
    );
    let options: Vec<&str> = options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        options,
        [
            "picture 1",
            "picture 2",
            "picture 3",
            "picture 4",
            "picture 5",
            "picture 6"
        ]
    );
    // GLA (picture 4) on A, EDI (3) on B, MAN (5) on C, each worth 1.
    let keyed: Vec<(usize, usize, bool, Option<f64>)> = pairs
        .iter()
        .map(|p| (p.row, p.option, p.correct, p.mapped_value))
        .collect();
    assert_eq!(
        keyed,
        [
            (0, 3, true, Some(1.0)),
            (1, 2, true, Some(1.0)),
            (2, 4, true, Some(1.0))
        ]
    );
    assert!(
        matches!(scoring, ChoiceScoring::MapResponse { default_value, .. } if *default_value == -1.0)
    );
    assert_eq!(item.max_score, 3);
    // Each picture to place is shown beside the words the grid names it by.
    assert_eq!(
        item.markup
            .matches("<img src=\"data:image/png;base64,")
            .count(),
        6,
        "{}",
        item.markup
    );
    assert!(item.markup.contains("/> picture 6</li>"), "{}", item.markup);
    let svg = svg_of(&item.markup);
    assert!(
        svg.contains(r#"<rect x="12" y="108" width="27" height="13"/>"#),
        "{svg}"
    );
}
