//! Issue 34 in the real window: the people desk. The embedded server's
//! administrator brings in a hand-checked OneRoster export kept as a folder
//! (previewed, then imported with Enter), finds a student by a word of her name
//! typed without its accent, reads a demo participant's results as the server has
//! them, adds a participant with a group, is told in the server's words which
//! field it refuses, changes their groups, and prints a class list that holds
//! exactly the group's members; a malformed roster is refused naming its line.

use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use crate::delivery::said;
use crate::support::{click, ctrl, press, type_into, wait_for, Api, DesktopSession};

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rosters/westbrook-1.2")
}

async fn people_named(api: &Api, username: &str) -> Vec<Value> {
    api.get(&format!(
        "Participants?$filter=Name%20eq%20%27{username}%27"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .clone()
}

async fn group_id(api: &Api, name: &str) -> String {
    let filter = format!("Name eq '{name}'")
        .replace(' ', "%20")
        .replace('\'', "%27")
        .replace(',', "%2C")
        .replace('(', "%28")
        .replace(')', "%29");
    api.get(&format!("Groups?$filter={filter}")).await["value"][0]["ID"]
        .as_i64()
        .unwrap_or_else(|| panic!("no group {name}"))
        .to_string()
}

async fn groups_of(api: &Api, participant: &str) -> Vec<String> {
    let mut names: Vec<String> = api
        .get(&format!("Participants({participant})/Groups"))
        .await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["Name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

/// The rows' usernames of the people list.
async fn listed(client: &Client) -> Vec<String> {
    let rows = client
        .find_all(fantoccini::Locator::Css(
            "#people-list tbody tr[data-username]",
        ))
        .await
        .unwrap();
    let mut names = Vec::new();
    for row in rows {
        names.push(row.attr("data-username").await.unwrap().unwrap_or_default());
    }
    names
}

/// Types into the search (/) and waits until the list shows `expected` first.
async fn search(client: &Client, text: &str, first: &str) {
    press(client, &['/']).await;
    type_into(client, "people-search", text).await;
    for _ in 0..100 {
        if listed(client).await.first().map(String::as_str) == Some(first) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "searching {text:?} did not list {first}: {:?}",
        listed(client).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_brings_a_roster_in_and_keeps_the_people_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // L opens the desk; U types the export's folder, Enter previews it.
    press(client, &['l']).await;
    wait_for(client, "#people-title").await;
    wait_for(client, "#people-list").await;
    press(client, &['u']).await;
    type_into(client, "roster-path", &fixture().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
    let summary = wait_for(
        client,
        "#roster-report[data-preview='true'] #roster-summary",
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(
        summary.starts_with("OneRoster 1.2: 4 participants would be added, 0 updated, 0 unchanged; 3 groups would be added"),
        "{summary}"
    );
    assert!(
        summary.contains("Not participants: 1 guardian, 1 teacher."),
        "{summary}"
    );
    assert!(
        people_named(&api, "zoe.garcia").await.is_empty(),
        "a preview stores nothing"
    );
    session.screenshot("people-roster-preview").await;

    // Enter imports what the preview showed; the list holds them at once.
    press(client, &[Key::Enter.into()]).await;
    let summary = wait_for(
        client,
        "#roster-report[data-preview='false'] #roster-summary",
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(
        summary.starts_with("OneRoster 1.2: 4 participants were added"),
        "{summary}"
    );
    assert_eq!(people_named(&api, "zoe.garcia").await.len(), 1);

    // "garcia" finds García without its accent; Enter in the field opens her card.
    search(client, "garcia", "zoe.garcia").await;
    assert_eq!(listed(client).await, ["zoe.garcia"]);
    press(client, &[Key::Enter.into()]).await;
    let name = wait_for(client, "#person-card-name")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(name, "García, Jr., Zoë");
    let groups = wait_for(client, "#person-card-groups")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(groups, "Biology (BIO-10A), Literature, Year 11");

    // A demo participant's results, as many as the server holds for them.
    let results = api.get("Results?$top=1&$orderby=ID").await;
    let username = results["value"][0]["ParticipantName"]
        .as_str()
        .unwrap()
        .to_owned();
    let theirs = api
        .get(&format!(
            "Results?$filter=ParticipantName%20eq%20%27{username}%27&$inlinecount=allpages&$top=1"
        ))
        .await["odata.count"]
        .as_str()
        .unwrap()
        .parse::<usize>()
        .unwrap();
    search(client, &username, &username).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!(
            "#person-card-name[data-id='{}']",
            people_named(&api, &username).await[0]["ID"]
        ),
    )
    .await;
    let rows = client
        .find_all(fantoccini::Locator::Css("#person-card-results tbody tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), theirs.min(200), "{username}'s results");
    session.screenshot("people-card").await;

    // A adds a participant in a group; Enter in a field saves.
    press(client, &[Key::Escape.into()]).await;
    press(client, &['a']).await;
    wait_for(client, "#person-dialog").await;
    type_into(client, "person-username", "nia.obi").await;
    type_into(client, "person-first-name", "Nia").await;
    type_into(client, "person-last-name", "Obi").await;
    click(
        client,
        "#person-groups input[data-group='Biology (BIO-10A)']",
    )
    .await;
    type_into(client, "person-email", "nia@westbrook.example").await;
    press(client, &[Key::Enter.into()]).await;
    let message = said(client, "people-message", "people-error").await;
    let nia = people_named(&api, "nia.obi").await;
    assert_eq!(nia.len(), 1);
    let nia_id = nia[0]["ID"].as_i64().unwrap().to_string();
    assert_eq!(
        message,
        format!("Obi, Nia was added as participant {nia_id}.")
    );
    assert_eq!(nia[0]["PrimaryEmail"], "nia@westbrook.example");
    assert_eq!(groups_of(&api, &nia_id).await, ["Biology (BIO-10A)"]);
    wait_for(client, &format!("#person-card-name[data-id='{nia_id}']")).await;

    // E changes her: an e-mail that is none is refused in the server's words and
    // nothing of the change is stored; then her groups change together with it.
    press(client, &['e']).await;
    wait_for(client, "#person-dialog").await;
    type_into(client, "person-email", "nia at westbrook").await;
    click(
        client,
        "#person-groups input[data-group='Biology (BIO-10A)']",
    )
    .await;
    click(
        client,
        "#person-groups input[data-group='Literature, Year 11']",
    )
    .await;
    // Ctrl+S saves from a group's box as Enter does from a field.
    ctrl(client, 's').await;
    let problem = wait_for(client, "#person-problem")
        .await
        .text()
        .await
        .unwrap();
    assert!(problem.contains("PrimaryEmail"), "{problem}");
    assert_eq!(
        groups_of(&api, &nia_id).await,
        ["Biology (BIO-10A)"],
        "all or nothing"
    );
    session.screenshot("people-refused").await;
    type_into(client, "person-email", "nia.obi@westbrook.example").await;
    press(client, &[Key::Enter.into()]).await;
    // The line still says the last save until this one's answer replaces it.
    for _ in 0..100 {
        if said(client, "people-message", "people-error").await == "Obi, Nia was saved." {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let message = said(client, "people-message", "people-error").await;
    assert_eq!(message, "Obi, Nia was saved.");
    assert_eq!(groups_of(&api, &nia_id).await, ["Literature, Year 11"]);
    assert_eq!(
        people_named(&api, "nia.obi").await[0]["PrimaryEmail"],
        "nia.obi@westbrook.example"
    );

    // ] and [ choose Biology (BIO-10A); P prints its class list in its own window.
    let biology = group_id(&api, "Biology (BIO-10A)").await;
    press(client, &[Key::Escape.into()]).await;
    for _ in 0..200 {
        let at = wait_for(client, "#class-list-group")
            .await
            .attr("data-id")
            .await
            .unwrap();
        if at.as_deref() == Some(biology.as_str()) {
            break;
        }
        let ids: Vec<String> = api.get("Groups?$orderby=Name&$select=ID").await["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["ID"].to_string())
            .collect();
        let here = ids
            .iter()
            .position(|id| Some(id.as_str()) == at.as_deref())
            .unwrap_or(0);
        let there = ids.iter().position(|id| *id == biology).unwrap();
        press(client, &[if there > here { ']' } else { '[' }]).await;
    }
    let main = client.window().await.unwrap();
    let known = client.windows().await.unwrap();
    press(client, &['p']).await;
    let mut list = None;
    for _ in 0..200 {
        let windows = client.windows().await.unwrap();
        if let Some(new) = windows.into_iter().find(|w| !known.contains(w)) {
            list = Some(new);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client
        .switch_to_window(list.expect("a class list window"))
        .await
        .unwrap();
    let mut text = String::new();
    for _ in 0..200 {
        text = client
            .execute(
                "return document.body ? document.body.innerText : '';",
                vec![],
            )
            .await
            .unwrap_or(Value::Null)
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if text.contains("participants") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(text.contains("Biology (BIO-10A)"), "{text}");
    assert!(text.contains("2 participants"), "{text}");
    let lukas = text.find("lukas.mueller").expect("Lukas is listed");
    let zoe = text.find("zoe.garcia").expect("Zoë is listed");
    assert!(zoe < lukas, "by family name: García before Müller: {text}");
    assert!(!text.contains("nia.obi"), "Nia left the group: {text}");
    session.screenshot("people-class-list").await;
    client.switch_to_window(main).await.unwrap();

    // A malformed roster: the server's words, naming the line and the column.
    let folder = tempfile::tempdir().unwrap();
    let bad = folder.path().join("form7.csv");
    std::fs::write(
        &bad,
        "username,first_name,last_name,email,group\nok.one,A,B,,G\n,C,D,,G\n",
    )
    .unwrap();
    press(client, &['u']).await;
    type_into(client, "roster-path", &bad.display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
    let error = wait_for(client, "#people-error[data-shown='true']")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        error.contains("form7.csv, line 3, column username"),
        "{error}"
    );
    assert!(people_named(&api, "ok.one").await.is_empty());
}
