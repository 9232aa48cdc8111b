//! Turning uploads (and the seed dataset) into [`NewSubmission`]s: content hash, edit
//! token, flags from the analysis. The ingest sequence itself (catalogue lookup, tags
//! completed from the catalogue, storability) is [`tag`], the one function the API
//! (submissions and tag edits), `ssdbase import` and the seed loader all call.

use crate::error::ErrorItem;
use crate::storage::{
    Correction, NewResult, NewSubmission, SettingCorrection, Storage, StorageError, StorageResult,
};
use bench::identity::{self, Identity};
use bench::seeds::Dataset;
use bench::text::Document;
use bench::{BenchResult, DriveMatch, DriveSku, DriveTag, Format, ParseError, TaggedResult, Tags};
use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// The content and token hash, as the storage stores it.
pub use crate::storage::sha256_hex;

/// A new secret edit token (256 random bits, hex) and the hash that is stored.
pub fn new_edit_token() -> (String, String) {
    new_secret()
}

/// A new secret (256 random bits, hex: an edit token, a screenshot job's key) and the
/// hash that is stored in its place.
pub fn new_secret() -> (String, String) {
    let mut buf = [0u8; 32];
    getrandom::fill(&mut buf).expect("the operating system's random source works");
    let token: String = buf.iter().map(|b| format!("{b:02x}")).collect();
    let hash = sha256_hex(token.as_bytes());
    (token, hash)
}

pub fn now_unix() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Copies what the catalogue knows about a tagged SKU into the drive tag, where the
/// submitter left it out, so filters on vendor, model and capacity find the result.
pub fn complete_tags(tags: &mut Tags, sku: Option<&DriveSku>) {
    let Some(d) = sku else { return };
    let t = &mut tags.drive;
    t.vendor.get_or_insert_with(|| d.vendor.clone());
    t.model.get_or_insert_with(|| d.model.clone());
    t.capacity_gb.get_or_insert(d.capacity_gb);
    if t.part_number.is_none() {
        t.part_number.clone_from(&d.part_number);
    }
}

/// The flags the analysis raises for one result (`bench::analysis::flags_for`).
pub use bench::analysis::flags_for;

/// An upload read into results, before tags: what the API and `ssdbase import` store.
#[derive(Debug, Clone)]
pub struct Upload {
    /// The bytes exactly as received.
    pub body: Vec<u8>,
    pub content_hash: String,
    /// `cdm`, `fio`, ... for result files, `json` for the public result format.
    pub format: Option<String>,
    pub results: Vec<BenchResult>,
    /// The first result as JSON, when it was serialised already (a public-format upload
    /// is hashed by it): its row stores this text. Set to `None` if `results` change.
    pub first_json: Option<String>,
}

/// A result file in any format the bench crate reads (auto-detected unless `format`);
/// its `name`, when it came with one, tells what an ORION matrix holds (`x_iops.csv`).
pub fn upload_from_file(
    body: Vec<u8>,
    name: Option<&str>,
    format: Option<Format>,
) -> Result<Upload, ParseError> {
    upload_from_document(&Document::from_bytes(&body), body, name, format)
}

/// A result file pasted as text (`body` is its UTF-8 bytes).
pub fn upload_from_text(text: String, format: Option<Format>) -> Result<Upload, ParseError> {
    let doc = Document::from_text(text);
    let body = doc.raw.clone().into_bytes();
    upload_from_document(&doc, body, None, format)
}

fn upload_from_document(
    doc: &Document,
    body: Vec<u8>,
    name: Option<&str>,
    format: Option<Format>,
) -> Result<Upload, ParseError> {
    let format = format.or_else(|| bench::detect(doc));
    let results = bench::parse::parse_document_named(doc, name, format)?;
    Ok(Upload {
        content_hash: sha256_hex(&body),
        body,
        format: format.map(|f| f.id().to_string()),
        results,
        first_json: None,
    })
}

/// One result in the public result format; `raw` is the JSON as it arrived and is what
/// is kept. Equal results are equal uploads however their JSON was laid out, so the hash
/// is of the canonical form.
pub fn upload_from_result(result: BenchResult, raw: Vec<u8>) -> Result<Upload, String> {
    let results = vec![result];
    bench::parse::check_well_formed(&results)?;
    let canonical = serde_json::to_string(&results[0]).expect("results serialise");
    Ok(Upload {
        body: raw,
        content_hash: sha256_hex(canonical.as_bytes()),
        format: Some("json".into()),
        results,
        first_json: Some(canonical),
    })
}

/// Whether some text in `v` (a value or a key) holds NUL (U+0000), which PostgreSQL
/// cannot store; `path` is extended to where.
pub fn find_nul(v: &serde_json::Value, path: &mut String) -> bool {
    match v {
        serde_json::Value::String(s) => s.contains('\0'),
        serde_json::Value::Array(items) => items.iter().enumerate().any(|(i, x)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            let hit = find_nul(x, path);
            if !hit {
                path.truncate(len);
            }
            hit
        }),
        serde_json::Value::Object(map) => map.iter().any(|(k, x)| {
            let len = path.len();
            path.push('.');
            path.push_str(k);
            let hit = find_nul(x, path) || k.contains('\0');
            if !hit {
                path.truncate(len);
            }
            hit
        }),
        _ => false,
    }
}

/// The refusal of text holding NUL, which PostgreSQL cannot store, at `pointer`.
pub fn nul_refused(pointer: String) -> ErrorItem {
    ErrorItem { detail: "text may not contain NUL characters (U+0000)".into(), pointer: Some(pointer) }
}

/// Text that PostgreSQL cannot store (NUL) is refused on every backend alike, with the
/// path of the field that holds it; everything else is stored exactly as typed.
pub fn check_storable(tags: &Tags, results: &[BenchResult], source: Option<&str>) -> Result<(), ErrorItem> {
    let nul = nul_refused;
    // What is stored must read back: a number JSON cannot carry (an f32 that overflowed
    // to infinity is written as null) is refused here, not found later in a row that no
    // longer reads.
    fn reads_back<T: serde::de::DeserializeOwned>(v: serde_json::Value, at: &str) -> Result<(), ErrorItem> {
        serde_path_to_error::deserialize::<_, T>(v).map(drop).map_err(|e| ErrorItem {
            detail: format!("a value out of range: {}", e.inner()),
            pointer: Some(format!("{at}.{}", e.path())),
        })
    }
    // Each check first on the serialised text, which is fast and exact (serde_json writes
    // NUL as `\u0000`; text that reads back as the type reads back); the walk over a
    // `Value` only finds where, when the text says there is something to find.
    fn checked<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T, at: &str) -> Result<(), ErrorItem> {
        let text = serde_json::to_string(v).expect("results and tags serialise");
        if !text.contains("\\u0000") && serde_json::from_str::<T>(&text).is_ok() {
            return Ok(());
        }
        let value = serde_json::to_value(v).expect("results and tags serialise");
        let mut path = at.to_string();
        if find_nul(&value, &mut path) {
            return Err(nul_refused(path));
        }
        reads_back::<T>(value, at)
    }
    checked(tags, "tags")?;
    for (n, r) in results.iter().enumerate() {
        if let Some((key, first, again)) = r.repeated_test() {
            let which = if results.len() > 1 {
                format!("result {} of {}", n + 1, results.len())
            } else {
                "the result".into()
            };
            return Err(ErrorItem {
                detail: format!(
                    "{which} holds two rows of one test, {} ({:?} and {:?}): a result holds each test once",
                    key.short_name(),
                    r.metrics[first].label,
                    r.metrics[again].label
                ),
                pointer: Some(format!("result.metrics[{again}]")),
            });
        }
        if let Some((i, s)) = r.over_time.iter().enumerate().find(|(_, s)| s.metric >= r.metrics.len()) {
            return Err(ErrorItem {
                detail: format!(
                    "a series over time of metric {}, but the result has {} metric(s)",
                    s.metric,
                    r.metrics.len()
                ),
                pointer: Some(format!("result.over_time[{i}].metric")),
            });
        }
    }
    for r in results {
        // A series over time is thousands of plain numbers: checked as numbers (the only
        // way they can fail to read back is not being finite), the rest as text.
        for (i, s) in r.over_time.iter().enumerate() {
            let bad = s.after_idle_secs.is_some_and(|v| !v.is_finite())
                || s.points.iter().any(|p| {
                    !(p.secs.is_finite() && p.mbps.is_finite() && p.iops.is_none_or(f64::is_finite))
                });
            if bad {
                return Err(ErrorItem {
                    detail: "a value out of range: a series over time holds a number that is not finite"
                        .into(),
                    pointer: Some(format!("result.over_time[{i}]")),
                });
            }
        }
        if r.over_time.is_empty() {
            checked(r, "result")?;
        } else {
            checked(&BenchResult { over_time: Vec::new(), ..r.clone() }, "result")?;
        }
    }
    if source.is_some_and(|s| s.contains('\0')) {
        return Err(nul("source".into()));
    }
    Ok(())
}

/// At most this many drives found by search are looked at for a name close to one.
const NEAR_CANDIDATES: usize = 20;

/// At most this many drives of one model line are a tag's candidates (a model line has a
/// handful of capacities; more is a vendor naming many drives alike).
const MODEL_LINE_CANDIDATES: i64 = 12;

/// The drives an ingest may name or find: drives given up front (a dataset's own, the
/// seeds'), drives this ingest created, then the database's. Each drive is read once.
pub struct Catalogue<'a> {
    known: HashMap<String, DriveSku>,
    /// The keys of `known` (`bench::identity::keys_of`), built when first asked.
    known_keys: Option<HashMap<String, Vec<String>>>,
    storage: Option<&'a dyn Storage>,
}

/// Which drive a drive tag names, as [`Catalogue::identify`] found it.
#[derive(Debug, Clone)]
pub enum Found {
    Drive(DriveSku, DriveMatch),
    /// No drive matched: a community drive to create with the result.
    New(DriveSku),
    /// Several drives matched (their ids).
    Ambiguous(Vec<String>),
    /// The tag names no drive, or too little of one to create it.
    Unknown,
}

impl<'a> Catalogue<'a> {
    /// The database's catalogue: what the API's submissions and edits may name.
    pub fn stored(storage: &'a dyn Storage) -> Catalogue<'a> {
        Catalogue::with(&[], Some(storage))
    }

    /// `drives`, then (when given) the database's catalogue. A drive listed twice is its
    /// last listing.
    pub fn with(drives: &[DriveSku], storage: Option<&'a dyn Storage>) -> Catalogue<'a> {
        Catalogue {
            known: drives.iter().map(|d| (d.id.clone(), d.clone())).collect(),
            known_keys: None,
            storage,
        }
    }

    /// Catalogue drive `id`, if there is one.
    pub async fn drive(&mut self, id: &str) -> StorageResult<Option<DriveSku>> {
        if let Some(d) = self.known.get(id) {
            return Ok(Some(d.clone()));
        }
        let Some(storage) = self.storage else { return Ok(None) };
        let found = storage.get_drive(id).await?;
        if let Some(d) = &found {
            self.known.insert(id.to_string(), d.clone());
        }
        Ok(found)
    }

    /// The drives known under each of `keys` (ids sorted, each once), from the drives
    /// given up front and the database's in one query, whose drives are kept for
    /// [`drive`](Self::drive).
    async fn ids_by_keys(&mut self, keys: &[String]) -> StorageResult<HashMap<String, Vec<String>>> {
        let known = self.known_keys.get_or_insert_with(|| {
            let mut by_key: HashMap<String, Vec<String>> = HashMap::new();
            for d in self.known.values() {
                for k in identity::keys_of(d) {
                    by_key.entry(k).or_default().push(d.id.clone());
                }
            }
            by_key
        });
        let mut found: HashMap<String, Vec<String>> =
            keys.iter().filter_map(|k| Some((k.clone(), known.get(k)?.clone()))).collect();
        if let Some(storage) = self.storage {
            for (key, drive) in storage.drives_by_keys(keys).await? {
                found.entry(key).or_default().push(drive.id.clone());
                self.known.entry(drive.id.clone()).or_insert(drive);
            }
        }
        for ids in found.values_mut() {
            ids.sort();
            ids.dedup();
        }
        Ok(found)
    }

    /// Which drive a drive tag without an id names: a drive known under one of its keys
    /// (the exact keys first, then those without a trailing revision word), several (an
    /// ambiguity nobody should settle by guessing), or none, when a community drive is
    /// made from its vendor, model line and capacity. A drive made here is found again
    /// by the rest of the same ingest (several files, a dataset) without the database.
    pub async fn identify(&mut self, tag: &DriveTag) -> Result<Found, Refused> {
        self.identify_as(tag, true).await
    }

    /// [`identify`](Self::identify) for a drive only proposed, never made by this ingest:
    /// a drive it would make is `Found::New` but is not remembered, so the rest of the
    /// ingest does not find it as a drive SSDBase has.
    pub async fn identify_proposed(&mut self, tag: &DriveTag) -> Result<Found, Refused> {
        self.identify_as(tag, false).await
    }

    async fn identify_as(&mut self, tag: &DriveTag, made: bool) -> Result<Found, Refused> {
        // A key read just before its drive was merged away leads nowhere: the catalogue
        // changed between two reads, so look again (the name is the other drive's now).
        for _ in 0..3 {
            if let Some(found) = self.identify_once(tag, made).await? {
                return Ok(found);
            }
            self.known_keys = None;
        }
        Err(Refused::Storage(StorageError::Corrupt(format!(
            "the keys of drive tag {tag:?} name a drive that is not there"
        ))))
    }

    /// [`identify`](Self::identify), or `None` when a key names a drive that is gone.
    async fn identify_once(&mut self, tag: &DriveTag, made: bool) -> Result<Option<Found>, Refused> {
        let identity = match Identity::from_tag(tag) {
            Ok(Some(identity)) => identity,
            Ok(None) => return Ok(Some(Found::Unknown)),
            Err(junk) => {
                return Err(Refused::Invalid(ErrorItem {
                    detail: format!("the drive's {} {}", junk.field.replace('_', " "), junk.detail),
                    pointer: Some(format!("tags.drive.{}", junk.field)),
                }))
            }
        };
        // Every round's keys in one lookup: most tags are found by the first round, and
        // a tag that is not costs one round trip instead of two.
        let rounds = identity.lookup_keys();
        let by_key = self.ids_by_keys(&rounds.concat()).await.map_err(Refused::Storage)?;
        for (round, keys) in rounds.into_iter().enumerate() {
            let mut ids: Vec<String> = keys.iter().filter_map(|k| by_key.get(k)).flatten().cloned().collect();
            ids.sort();
            ids.dedup();
            if let (true, Some(vendor)) = (ids.len() > 1, &identity.vendor) {
                // Keys without a vendor ("p105500gb") are shared by other makers' drives:
                // a tag that names its vendor is not ambiguous between makers.
                let mut same_maker = Vec::new();
                for id in &ids {
                    let d = self.drive(id).await.map_err(Refused::Storage)?;
                    if d.is_some_and(|d| identity::vendor_key(&d.vendor) == *vendor) {
                        same_maker.push(id.clone());
                    }
                }
                if !same_maker.is_empty() {
                    ids = same_maker;
                }
            }
            match ids.as_slice() {
                [] => continue,
                [id] => {
                    let Some(drive) = self.drive(id).await.map_err(Refused::Storage)? else {
                        return Ok(None);
                    };
                    // By its name when the drive has the tag's vendor, model line and
                    // capacity key; by another of its names (a line's short name, a part
                    // number, an alias) otherwise.
                    let how = match (round, identity.name_key()) {
                        (0, Some(name)) if keys.contains(&name) && self.has_key(&drive, &name) => {
                            DriveMatch::Name
                        }
                        (0, _) => DriveMatch::Alias,
                        _ => DriveMatch::Loose,
                    };
                    return Ok(Some(Found::Drive(drive, how)));
                }
                _ => return Ok(Some(Found::Ambiguous(ids))),
            }
        }
        // A model line without a capacity is one of its capacities, but which is for
        // the person to say: the drives it may be are candidates, never a guess.
        if let Some((from, to)) = identity.model_line_range() {
            let ids = self.ids_in_key_range(&from, &to).await.map_err(Refused::Storage)?;
            if !ids.is_empty() {
                return Ok(Some(Found::Ambiguous(ids)));
            }
        }
        let Some(mut drive) = identity.new_drive(tag.part_number.as_deref()) else {
            return Ok(Some(Found::Unknown));
        };
        // Close to a drive SSDBase has but not certainly it (a typo, a short form of a
        // line the table does not know): the person chooses, no second drive is made.
        let near = self.near_drives(&identity).await.map_err(Refused::Storage)?;
        if !near.is_empty() {
            return Ok(Some(Found::Ambiguous(near)));
        }
        // The id may be taken: by this very drive, made by a submission that committed
        // after the keys were read (concurrent submissions of one new drive), which is
        // then the drive; or by another name with the same slug, when the new drive gets
        // a number.
        let base = drive.id.clone();
        let name = identity.line_key().or_else(|| identity.name_key());
        let mut n = 1;
        while let Some(existing) = self.drive(&drive.id).await.map_err(Refused::Storage)? {
            if name.as_ref().is_some_and(|k| self.has_key(&existing, k)) {
                return Ok(Some(Found::Drive(existing, DriveMatch::Name)));
            }
            n += 1;
            drive.id = format!("{base}-{n}");
        }
        if !made {
            return Ok(Some(Found::New(drive)));
        }
        if let Some(by_key) = &mut self.known_keys {
            for k in identity::keys_of(&drive) {
                by_key.entry(k).or_default().push(drive.id.clone());
            }
        }
        self.known.insert(drive.id.clone(), drive.clone());
        Ok(Some(Found::New(drive)))
    }

    /// The ids of the drives with a key in [`from`, `to`), sorted, each once: those
    /// given up front and at most [`MODEL_LINE_CANDIDATES`] of the database's.
    async fn ids_in_key_range(&mut self, from: &str, to: &str) -> StorageResult<Vec<String>> {
        // The keys of the drives given up front, as `ids_by_keys` built them.
        let mut ids: Vec<String> = self
            .known_keys
            .iter()
            .flatten()
            .filter(|(k, _)| k.as_str() >= from && k.as_str() < to)
            .flat_map(|(_, ids)| ids.iter().cloned())
            .collect();
        if let Some(storage) = self.storage {
            let found = storage.search_drives(from, to, MODEL_LINE_CANDIDATES).await?;
            ids.extend(found.into_iter().map(|row| row.drive.id));
        }
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// The database's drives that `identity` may well be but no key says so: found by
    /// drive search for its vendor and model (each word, or one typo of it), of its
    /// capacity, with a vendor and model line written alike ([`identity::close_names`]).
    /// None when the identity names a line of `data/drive_lines.json`: its line key is
    /// then certain, and a drive without it is another line ("P3" is not "P3 Plus").
    async fn near_drives(&mut self, identity: &Identity) -> StorageResult<Vec<String>> {
        let (Some(storage), None, Some(gb)) = (self.storage, identity.line, identity.capacity_gb) else {
            return Ok(Vec::new());
        };
        let text =
            format!("{} {}", identity.vendor_name.as_deref().unwrap_or(""), identity.model_words.join(" "));
        let Some(query) = identity::search_query(&text) else { return Ok(Vec::new()) };
        let rows = crate::storage::search::find(storage, &query, NEAR_CANDIDATES).await?.unwrap_or_default();
        let mut ids: Vec<String> = rows
            .into_iter()
            .filter(|row| row.drive.capacity_gb == gb && identity::close_names(identity, &row.drive))
            .map(|row| row.drive.id)
            .collect();
        ids.sort();
        Ok(ids)
    }

    fn has_key(&self, drive: &DriveSku, key: &str) -> bool {
        identity::keys_of(drive).iter().any(|k| k == key)
    }
}

/// Why [`tag`] refuses what it was given.
#[derive(Debug)]
pub enum Refused {
    /// `tags.drive.sku` names no catalogue drive (the id).
    UnknownDrive(String),
    /// What is wrong and where: a field the database cannot store, a result that is not
    /// well formed.
    Invalid(ErrorItem),
    /// The catalogue could not be read.
    Storage(StorageError),
}

impl Refused {
    /// What the submitter is told (an unknown drive points at `tags.drive.sku`), or the
    /// storage error behind the refusal.
    pub fn into_item(self) -> Result<ErrorItem, StorageError> {
        match self {
            Refused::UnknownDrive(id) => Ok(ErrorItem {
                detail: format!("unknown drive {id:?}: not in the catalogue"),
                pointer: Some("tags.drive.sku".into()),
            }),
            Refused::Invalid(item) => Ok(item),
            Refused::Storage(e) => Err(e),
        }
    }
}

/// Tags that passed [`tag`]: completed from their drive, which they keep for the flags,
/// with the community drive they create, if any; and, for each result given, the tags
/// completed from what that result's file says where the submitted ones are silent.
#[derive(Debug, Clone)]
pub struct Tagged {
    pub tags: Tags,
    pub sku: Option<DriveSku>,
    pub new_drive: Option<DriveSku>,
    /// Per result given to [`tag`], in order: its own tags and drive when its file said
    /// something the submitted tags did not (`Tags::read_from_file`).
    from_file: Vec<Option<(Tags, Option<DriveSku>)>>,
}

/// The ingest sequence, the one way tags reach the database with results: the drive
/// found (a given id looked up in the catalogue, an unknown one refused; otherwise the
/// drive tag identified, or a community drive made from it, and how recorded in
/// `tags.drive.identified_by`), the drive tags completed from it, then the tags,
/// `results` and `source` checked storable. Where the tags are silent, each result's file
/// speaks for it ([`read_from_file`]). Every path a result takes goes through here:
/// the API's submissions (JSON, multipart, screenshots) and tag edits, `ssdbase import`
/// (files and datasets) and the seed loader; a rule added here applies to all of them.
pub async fn tag(
    catalogue: &mut Catalogue<'_>,
    mut tags: Tags,
    results: &[BenchResult],
    source: Option<&str>,
) -> Result<Tagged, Refused> {
    // How the drive was found, and what came from the file, is the server's to say,
    // never the submitter's.
    tags.drive.candidates.clear();
    tags.read_from_file.clear();
    let mut new_drive = None;
    let sku = match tags.drive.sku.clone() {
        Some(id) => {
            let d = catalogue
                .drive(&id)
                .await
                .map_err(Refused::Storage)?
                .ok_or_else(|| Refused::UnknownDrive(id.clone()))?;
            // The id decides: a vendor, model or capacity beside it that name another
            // drive are what an edit form kept of the drive it corrects (the result's
            // title would still name that one).
            name_drive(&mut tags, &d, DriveMatch::Given);
            Some(d)
        }
        None => match catalogue.identify(&tags.drive).await? {
            Found::Drive(d, how) => {
                name_drive(&mut tags, &d, how);
                Some(d)
            }
            Found::New(d) => {
                name_drive(&mut tags, &d, DriveMatch::Created);
                new_drive = Some(d.clone());
                Some(d)
            }
            Found::Ambiguous(ids) => {
                tags.drive.identified_by = Some(DriveMatch::Ambiguous);
                tags.drive.candidates = ids;
                None
            }
            Found::Unknown => {
                tags.drive.identified_by = Some(DriveMatch::Unknown);
                None
            }
        },
    };
    check_storable(&tags, results, source).map_err(Refused::Invalid)?;
    let mut from_file = Vec::with_capacity(results.len());
    for result in results {
        from_file.push(read_from_file(catalogue, &tags, result).await?);
    }
    Ok(Tagged { tags, sku, new_drive, from_file })
}

/// `tags` completed from what `result`'s file says, where they are silent: the drive
/// its model names when that is exactly one drive SSDBase has (`named-in-upload`) or
/// the few it could be (ambiguous, for someone to pick); the firmware, driver and OS it
/// prints. A drive SSDBase lacks is not made: the result stays unassigned and its page
/// proposes the drive to its owner. `None` when the file adds nothing.
async fn read_from_file(
    catalogue: &mut Catalogue<'_>,
    tags: &Tags,
    result: &BenchResult,
) -> Result<Option<(Tags, Option<DriveSku>)>, Refused> {
    let mut t = tags.clone();
    let mut sku = None;
    if t.drive.identified_by == Some(DriveMatch::Unknown) {
        let texts = identity::texts_naming_a_drive(result);
        match named_in_upload(catalogue, &texts, identity::upload_capacity(result))
            .await
            .map_err(Refused::Storage)?
        {
            Some((_, Found::Drive(d, _))) => {
                name_drive(&mut t, &d, DriveMatch::NamedInUpload);
                t.read_from_file.push("drive".into());
                sku = Some(d);
            }
            Some((_, Found::Ambiguous(ids))) => {
                t.drive.identified_by = Some(DriveMatch::Ambiguous);
                t.drive.candidates = ids;
                t.read_from_file.push("drive".into());
            }
            _ => {}
        }
    }
    let printed =
        |field: &str| result.fact(field).map(|f| f.value.trim().to_string()).filter(|v| !v.is_empty());
    for (field, slot) in
        [("firmware", &mut t.firmware), ("driver", &mut t.platform.driver), ("os", &mut t.platform.os)]
    {
        if slot.is_none() {
            if let Some(value) = printed(field) {
                *slot = Some(value);
                t.read_from_file.push(field.into());
            }
        }
    }
    if t.read_from_file.is_empty() {
        return Ok(None);
    }
    // What a file prints is held to the same limits as what a person types.
    if check_storable(&t, std::slice::from_ref(result), None).is_err() {
        return Ok(None);
    }
    Ok(Some((t, sku)))
}

/// The first of an upload's `texts` that names a drive, and what it names: a drive
/// SSDBase has, the several it could be, or a drive to propose (only for a text that
/// reads as a drive's name). Texts that cannot name a drive (junk, too long) are passed
/// over. Shared by ingest and `GET /drives/identify?text=`, so that the submit page
/// proposes what a submission would find.
pub async fn named_in_upload(
    catalogue: &mut Catalogue<'_>,
    texts: &[String],
    capacity_gb: Option<u32>,
) -> StorageResult<Option<(String, Found)>> {
    // A text that names a drive without its capacity ("Crucial MX500") is read with the
    // capacity the upload shows (its whole-drive volume).
    let texts: Vec<String> = texts.iter().map(|t| identity::with_capacity(t, capacity_gb)).collect();
    for text in texts.iter().filter(|t| !t.trim().is_empty()) {
        let tag = DriveTag { model: Some(text.clone()), ..DriveTag::default() };
        let found = match catalogue.identify_proposed(&tag).await {
            Ok(found) => found,
            Err(Refused::Storage(e)) => return Err(e),
            Err(_) => continue,
        };
        let names = match &found {
            Found::Unknown => false,
            Found::New(_) => identity::names_a_drive(text),
            Found::Drive(..) | Found::Ambiguous(_) => true,
        };
        if names {
            return Ok(Some((text.clone(), found)));
        }
    }
    Ok(None)
}

/// Tags naming drive `d`, found `how`: its id, and its vendor, model line and capacity as
/// the drive has them (so filters see one spelling); a part number given is kept.
fn name_drive(tags: &mut Tags, d: &DriveSku, how: DriveMatch) {
    let t = &mut tags.drive;
    t.sku = Some(d.id.clone());
    t.vendor = Some(d.vendor.clone());
    t.model = Some(d.model.clone());
    t.capacity_gb = Some(d.capacity_gb);
    t.identified_by = Some(how);
    complete_tags(tags, Some(d));
}

impl Tagged {
    /// Result `i` of those given to [`tag`] with its tags and the flags they give it: a
    /// new result, or a stored one re-tagged.
    /// The `i`th result with its tags; `json` is the result serialised, when the caller
    /// has that text already ([`Upload::first_json`]).
    pub fn result(
        &self,
        i: usize,
        result: BenchResult,
        json: Option<String>,
        source: Option<String>,
    ) -> NewResult {
        let (tags, sku) = match self.from_file.get(i) {
            Some(Some((tags, sku))) => (tags, sku.as_ref().or(self.sku.as_ref())),
            _ => (&self.tags, self.sku.as_ref()),
        };
        NewResult {
            flags: flags_for(&result, tags, sku),
            result,
            result_json: json,
            tags: tags.clone(),
            source,
            new_drive: self.new_drive.clone(),
        }
    }

    /// An upload with these tags as a submission, and the secret edit token to hand back
    /// to the submitter (only its hash is stored).
    pub fn submission(
        &self,
        upload: Upload,
        source: Option<String>,
        client: Option<String>,
    ) -> (NewSubmission, String) {
        let (edit_token, edit_token_hash) = new_edit_token();
        let mut first_json = upload.first_json;
        let submission = NewSubmission {
            body: upload.body,
            content_hash: upload.content_hash,
            format: upload.format,
            edit_token_hash,
            client,
            created_at: now_unix(),
            results: upload
                .results
                .into_iter()
                .enumerate()
                .map(|(i, result)| self.result(i, result, first_json.take(), source.clone()))
                .collect(),
            provenance: None,
            runner: None,
        };
        (submission, edit_token)
    }
}

/// One result of a dataset as an upload: its JSON (result, tags and source) is the body,
/// `origin` the format.
pub fn upload_from_tagged(tr: &TaggedResult, origin: &str) -> Result<Upload, String> {
    bench::parse::check_well_formed(std::slice::from_ref(&tr.result))?;
    let body = serde_json::to_vec(tr).expect("results serialise");
    Ok(Upload {
        content_hash: sha256_hex(&body),
        body,
        format: Some(origin.into()),
        results: vec![tr.result.clone()],
        first_json: None,
    })
}

/// The whole seed dataset as submissions: one per result, its JSON as the body.
pub async fn seed_submissions(ds: &Dataset) -> Result<Vec<NewSubmission>, (usize, Refused)> {
    dataset_submissions(ds, &mut Catalogue::with(&ds.drives, None), "seed").await
}

/// A dataset's results as submissions, one per result with its JSON as the body, each
/// through [`tag`]; `origin` is their format and client. The first refusal stops it, with
/// the index of the result refused.
pub async fn dataset_submissions(
    ds: &Dataset,
    catalogue: &mut Catalogue<'_>,
    origin: &str,
) -> Result<Vec<NewSubmission>, (usize, Refused)> {
    let mut submissions = Vec::with_capacity(ds.results.len());
    for (i, tr) in ds.results.iter().enumerate() {
        let refused = |e| (i, e);
        let upload = upload_from_tagged(tr, origin)
            .map_err(|detail| refused(Refused::Invalid(ErrorItem { detail, pointer: None })))?;
        let tagged =
            tag(catalogue, tr.tags.clone(), &upload.results, tr.source.as_deref()).await.map_err(refused)?;
        let (submission, _) = tagged.submission(upload, tr.source.clone(), Some(origin.into()));
        submissions.push(submission);
    }
    Ok(submissions)
}

/// Every value of `published` that differs from `recognised` (same row label and
/// operation), and every recognised value left out: what a person corrected by hand.
pub fn corrections(recognised: &BenchResult, published: &BenchResult) -> Vec<Correction> {
    type Fields = [(&'static str, Option<f64>); 3];
    let fields =
        |m: &bench::Metric| -> Fields { [("mbps", m.mbps), ("iops", m.iops), ("latency_us", m.latency_us)] };
    let find = |r: &BenchResult, m: &bench::Metric| {
        r.metrics.iter().find(|o| o.label == m.label && o.op == m.op).map(fields)
    };
    let mut out = Vec::new();
    for m in &published.metrics {
        let before = find(recognised, m).unwrap_or([("mbps", None), ("iops", None), ("latency_us", None)]);
        for ((field, now), (_, was)) in fields(m).into_iter().zip(before) {
            if now != was {
                out.push(Correction {
                    label: m.label.clone(),
                    op: m.op,
                    field: field.into(),
                    recognised: was,
                    published: now,
                });
            }
        }
    }
    for m in &recognised.metrics {
        if find(published, m).is_none() {
            for (field, was) in fields(m) {
                if was.is_some() {
                    out.push(Correction {
                        label: m.label.clone(),
                        op: m.op,
                        field: field.into(),
                        recognised: was,
                        published: None,
                    });
                }
            }
        }
    }
    out
}

/// Every setting of the run (passes, test size, target) that `published` states
/// differently from `recognised`: what the person corrected in the settings bar's
/// reading, recorded beside the values' corrections.
pub fn setting_corrections(recognised: &BenchResult, published: &BenchResult) -> Vec<SettingCorrection> {
    let text = |v: Option<String>| v;
    [
        (
            "passes",
            text(recognised.passes.map(|p| p.to_string())),
            text(published.passes.map(|p| p.to_string())),
        ),
        (
            "test_size_bytes",
            recognised.test_size_bytes.map(|b| b.to_string()),
            published.test_size_bytes.map(|b| b.to_string()),
        ),
        ("target", recognised.target.clone(), published.target.clone()),
    ]
    .into_iter()
    .filter(|(_, was, now)| was != now)
    .map(|(field, recognised, published)| SettingCorrection { field: field.into(), recognised, published })
    .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn setting_corrections_list_each_changed_setting() {
        let recognised: bench::BenchResult = bench::parse_str(tests_cdm8(), None).unwrap().remove(0);
        assert!(super::setting_corrections(&recognised, &recognised).is_empty());
        let mut published = recognised.clone();
        published.test_size_bytes = Some(4 << 30);
        published.target = None;
        let c = super::setting_corrections(&recognised, &published);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(
            (c[0].field.as_str(), c[0].recognised.clone(), c[0].published.as_deref()),
            ("test_size_bytes", recognised.test_size_bytes.map(|b| b.to_string()), Some("4294967296"))
        );
        assert_eq!((c[1].field.as_str(), c[1].published.as_deref()), ("target", None));
    }

    #[test]
    fn corrections_list_every_changed_added_and_dropped_value() {
        let recognised: bench::BenchResult = bench::parse_str(tests_cdm8(), None).unwrap().remove(0);
        assert!(super::corrections(&recognised, &recognised).is_empty());
        let mut published = recognised.clone();
        published.metrics[0].mbps = Some(published.metrics[0].mbps.unwrap() + 1000.0);
        let dropped = published.metrics.pop().unwrap();
        let c = super::corrections(&recognised, &published);
        assert_eq!(c.len(), 1 + [dropped.mbps, dropped.iops, dropped.latency_us].iter().flatten().count());
        assert_eq!(c[0].label, recognised.metrics[0].label);
        assert_eq!(
            (c[0].field.as_str(), c[0].recognised, c[0].published),
            ("mbps", recognised.metrics[0].mbps, published.metrics[0].mbps)
        );
        assert!(c[1..].iter().all(|x| x.label == dropped.label && x.published.is_none()));
    }

    use super::*;

    #[test]
    fn hashes_and_tokens() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let (a, ha) = new_edit_token();
        let (b, _) = new_edit_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(ha, sha256_hex(a.as_bytes()));
    }

    #[test]
    fn nul_characters_are_found_with_their_path() {
        let mut tags = Tags::default();
        assert!(check_storable(&tags, &[], Some("ok")).is_ok());
        tags.platform.chipset = Some("ICH\u{0}10R".into());
        assert_eq!(
            check_storable(&tags, &[], None).unwrap_err().pointer.as_deref(),
            Some("tags.platform.chipset")
        );
        let mut r = BenchResult::new(bench::Tool::Fio);
        r.comment = Some("a\0b".into());
        let e = check_storable(&Tags::default(), &[r], None).unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("result.comment"));
        assert_eq!(
            check_storable(&Tags::default(), &[], Some("\0")).unwrap_err().pointer.as_deref(),
            Some("source")
        );
    }

    #[tokio::test]
    async fn tagging_looks_the_drive_up_completes_the_tags_and_checks_them() {
        let ds = bench::seeds::seed_dataset().unwrap();
        let drive = &ds.drives[0];
        let mut catalogue = Catalogue::with(&ds.drives, None);
        let mut tags = Tags::default();
        tags.drive.sku = Some(drive.id.clone());
        let tagged = tag(&mut catalogue, tags.clone(), &[], None).await.unwrap();
        assert_eq!(tagged.tags.drive.model.as_deref(), Some(drive.model.as_str()));
        assert_eq!(tagged.tags.drive.capacity_gb, Some(drive.capacity_gb));
        assert_eq!(tagged.sku.as_ref(), Some(drive));

        tags.drive.sku = Some("no-such-drive".into());
        let refused = tag(&mut catalogue, tags.clone(), &[], None).await.unwrap_err();
        assert!(matches!(&refused, Refused::UnknownDrive(id) if id == "no-such-drive"), "{refused:?}");
        let item = refused.into_item().unwrap();
        assert_eq!(item.pointer.as_deref(), Some("tags.drive.sku"));
        assert_eq!(item.detail, "unknown drive \"no-such-drive\": not in the catalogue");

        tags.drive.sku = Some(drive.id.clone());
        tags.platform.chipset = Some("ICH\u{0}10R".into());
        match tag(&mut catalogue, tags, &[], None).await {
            Err(Refused::Invalid(e)) => assert_eq!(e.pointer.as_deref(), Some("tags.platform.chipset")),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_dataset_result_naming_an_unknown_drive_is_refused_with_its_index() {
        let mut ds = bench::seeds::seed_dataset().unwrap();
        ds.results.truncate(3);
        ds.results[1].tags.drive.sku = Some("no-such-drive".into());
        let (i, refused) =
            dataset_submissions(&ds, &mut Catalogue::with(&ds.drives, None), "test").await.unwrap_err();
        assert_eq!(i, 1);
        assert!(matches!(refused, Refused::UnknownDrive(_)), "{refused:?}");
    }

    #[tokio::test]
    async fn every_seed_becomes_one_submission_with_a_distinct_hash() {
        let ds = bench::seeds::seed_dataset().unwrap();
        let subs = seed_submissions(&ds).await.unwrap();
        assert_eq!(subs.len(), ds.results.len());
        let hashes: std::collections::HashSet<_> = subs.iter().map(|s| &s.content_hash).collect();
        assert_eq!(hashes.len(), subs.len());
    }

    fn tests_cdm8() -> &'static str {
        "------------------------------------------------------------------------------
CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
  SEQ    1MiB (Q=  8, T= 1):   560.123 MB/s [    534.2 IOPS] < 14953.01 us>
  SEQ    1MiB (Q=  1, T= 1):   520.456 MB/s [    496.3 IOPS] <  2013.72 us>
  RND    4KiB (Q= 32, T= 1):   380.789 MB/s [  92966.1 IOPS] <   343.89 us>
  RND    4KiB (Q=  1, T= 1):    45.012 MB/s [  10989.3 IOPS] <    90.86 us>

[Write]
  SEQ    1MiB (Q=  8, T= 1):   510.345 MB/s [    486.7 IOPS] < 16377.53 us>
  SEQ    1MiB (Q=  1, T= 1):   480.678 MB/s [    458.4 IOPS] <  2180.04 us>
  RND    4KiB (Q= 32, T= 1):   330.901 MB/s [  80786.4 IOPS] <   395.71 us>
  RND    4KiB (Q=  1, T= 1):   120.234 MB/s [  29354.0 IOPS] <    34.01 us>

Profile: Default
   Test: 1 GiB (x5) [C: 40% (190/476GiB)]
   Mode: [Admin]
   Time: Measure 5 sec / Interval 5 sec 
   Date: 2021/06/01 12:00:00
     OS: Windows 10 Professional [10.0 Build 19043] (x64)
"
    }
}
