//! One description of every per-result field people filter, sort, group by, download or
//! edit: [`FIELDS`]. Everything that lists such fields is derived from it: the `results`
//! columns and the values bound to them, the browse filters and sorts with their
//! OpenAPI parameters, the CSV columns, the platform group (and so the compare summary's
//! layout version), and the site's tag forms and filters. Adding a filterable tag is the
//! model field, one entry here, and one migration per backend adding its column.

use crate::model::{
    BenchResult, ControllerTag, DriveMatch, Link, LinkPower, NandTag, Raid, StorageMode, Tags,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A field's value as its column holds it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldValue {
    Text(String),
    Int(i64),
}

impl std::fmt::Display for FieldValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldValue::Text(s) => f.write_str(s),
            FieldValue::Int(i) => write!(f, "{i}"),
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Int,
}

/// Where a field's value comes from.
#[derive(Clone, Copy)]
pub enum Source {
    /// A tag: what the result ran on, given by the submitter (and editable). `set`
    /// writes a value into the tags; writing back what `get` read changes nothing.
    Tag { get: fn(&Tags) -> Option<FieldValue>, set: fn(&mut Tags, Option<FieldValue>) -> Result<(), String> },
    /// A tag that, when not given, the result itself may tell (the OS a tool reports).
    TagOrResult {
        get: fn(&Tags) -> Option<FieldValue>,
        set: fn(&mut Tags, Option<FieldValue>) -> Result<(), String>,
        result: fn(&BenchResult) -> Option<FieldValue>,
    },
    /// Read from the result itself (which tool, which data): not a tag, not editable.
    Result(fn(&BenchResult) -> Option<FieldValue>),
}

/// How the site's tag forms offer a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Not on the forms (set through the API's JSON).
    None,
    /// Free text, suggestions from what others typed.
    Text,
    /// One of these values (the value as stored).
    Choice(&'static [&'static str]),
}

/// One field of a result.
#[derive(Clone, Copy)]
pub struct Field {
    /// The public name: the browse filter (`?chipset=ICH10R`), the sort, the CSV column,
    /// the platform group's JSON key.
    pub name: &'static str,
    /// The column of `results` that holds it.
    pub column: &'static str,
    /// What a person reads: form labels, filter labels, table headers.
    pub label: &'static str,
    /// A typical value: the forms' placeholder, and what the field test stores.
    pub example: &'static str,
    pub kind: Kind,
    /// Offered as `sort=name` / `sort=-name` on the browse.
    pub sort: bool,
    /// Part of the platform group: results pool only when they agree on it.
    pub group: bool,
    pub input: Input,
    pub source: Source,
}

impl Field {
    /// The value stored for a result with these tags.
    pub fn value(&self, tags: &Tags, result: &BenchResult) -> Option<FieldValue> {
        match self.source {
            Source::Tag { get, .. } => get(tags),
            Source::TagOrResult { get, result: from_result, .. } => get(tags).or_else(|| from_result(result)),
            Source::Result(get) => get(result),
        }
    }

    /// The value the tags give (`None` for a field read from the result).
    pub fn tag_value(&self, tags: &Tags) -> Option<FieldValue> {
        match self.source {
            Source::Tag { get, .. } | Source::TagOrResult { get, .. } => get(tags),
            Source::Result(_) => None,
        }
    }

    /// Reads a value as typed in a form or a query: text as is, numbers as whole numbers.
    pub fn parse(&self, s: &str) -> Result<FieldValue, String> {
        parse_value(self.kind, self.name, s)
    }

    /// Writes a tag from a form's text (empty clears it). Fields read from the result
    /// cannot be written.
    pub fn set_text(&self, tags: &mut Tags, s: &str) -> Result<(), String> {
        let (Source::Tag { set, .. } | Source::TagOrResult { set, .. }) = self.source else {
            return Err(format!("{} comes from the result, not from its tags", self.name));
        };
        let s = s.trim();
        let value = if s.is_empty() { None } else { Some(self.parse(s)?) };
        set(tags, value).map_err(|e| format!("{}: {e}", self.label))
    }

    /// Given by the submitter (and editable), not read from the result.
    pub fn is_tag(&self) -> bool {
        !matches!(self.source, Source::Result(_))
    }

    /// On the site's tag forms.
    pub fn is_editable(&self) -> bool {
        self.is_tag() && self.input != Input::None
    }
}

/// Reads a value of a column of this kind, exactly as given: text as is, a whole number
/// or an error that names `name`. The forms and the browse query read values this way.
pub fn parse_value(kind: Kind, name: &str, s: &str) -> Result<FieldValue, String> {
    match kind {
        Kind::Text => Ok(FieldValue::Text(s.to_string())),
        Kind::Int => {
            s.parse().map(FieldValue::Int).map_err(|_| format!("{name} must be a whole number, not {s:?}"))
        }
    }
}

/// Finds a field by its public name.
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// A field of the platform group: what a group needs of it.
#[derive(Clone, Copy)]
pub struct GroupField {
    pub name: &'static str,
    pub column: &'static str,
    pub kind: Kind,
    pub get: fn(&Tags) -> Option<FieldValue>,
}

/// The fields of the platform group, in [`FIELDS`] order, taken from it at compile time.
/// A group field must be a tag alone (a group is what the tags say): anything else does
/// not compile. Kept apart from `FIELDS` so that code that only groups (every page of the
/// site labels platforms) does not link every field's accessors.
pub const GROUP: [GroupField; group_len()] = group();

const fn group_len() -> usize {
    let (mut i, mut n) = (0, 0);
    while i < FIELDS.len() {
        if FIELDS[i].group {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn group() -> [GroupField; group_len()] {
    let unset = GroupField { name: "", column: "", kind: Kind::Text, get: |_| None };
    let mut out = [unset; group_len()];
    let (mut i, mut n) = (0, 0);
    while i < FIELDS.len() {
        let f = &FIELDS[i];
        if f.group {
            let Source::Tag { get, .. } = f.source else { panic!("a group field must be a tag alone") };
            out[n] = GroupField { name: f.name, column: f.column, kind: f.kind, get };
            n += 1;
        }
        i += 1;
    }
    out
}

/// The serde name of a unit enum value, e.g. `StorageMode::Ahci` → `AHCI`. Read by a
/// serializer that accepts nothing but a unit variant ([`VariantName`]) rather than
/// through JSON: every page of the site labels platforms, and JSON serialisation would
/// otherwise be in the code every page loads.
pub fn unit_name<T: Serialize>(v: &T) -> String {
    match v.serialize(VariantName) {
        Ok(name) => name.to_string(),
        Err(NotAUnitVariant) => panic!("not a unit enum variant"),
    }
}

/// The unit enum value of a serde name.
pub fn from_unit_name<T: DeserializeOwned>(s: &str) -> Result<T, String> {
    use serde::de::IntoDeserializer;
    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = s.into_deserializer();
    T::deserialize(de).map_err(|_| format!("{s:?} is not a known value"))
}

/// What [`VariantName`] answers for anything but a unit variant.
#[derive(Debug)]
pub struct NotAUnitVariant;

impl std::fmt::Display for NotAUnitVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a unit enum variant")
    }
}

impl std::error::Error for NotAUnitVariant {}

impl serde::ser::Error for NotAUnitVariant {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        NotAUnitVariant
    }
}

/// A serializer of unit enum variants to their names, and of nothing else.
struct VariantName;

macro_rules! refuse {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<&'static str, NotAUnitVariant> { Err(NotAUnitVariant) })*
    };
}

impl serde::Serializer for VariantName {
    type Ok = &'static str;
    type Error = NotAUnitVariant;
    type SerializeSeq = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeTuple = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeTupleStruct = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeTupleVariant = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeMap = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeStruct = serde::ser::Impossible<&'static str, NotAUnitVariant>;
    type SerializeStructVariant = serde::ser::Impossible<&'static str, NotAUnitVariant>;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<&'static str, NotAUnitVariant> {
        Ok(variant)
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
}

fn text(v: &Option<String>) -> Option<FieldValue> {
    v.clone().map(FieldValue::Text)
}

fn int<T: Copy + Into<i64>>(v: Option<T>) -> Option<FieldValue> {
    v.map(|v| FieldValue::Int(v.into()))
}

fn unit<T: Serialize>(v: &Option<T>) -> Option<FieldValue> {
    v.as_ref().map(|v| FieldValue::Text(unit_name(v)))
}

fn link(v: &Option<Link>) -> Option<FieldValue> {
    v.as_ref().map(|l| FieldValue::Text(l.id()))
}

fn put_text(v: Option<FieldValue>) -> Result<Option<String>, String> {
    match v {
        None => Ok(None),
        Some(FieldValue::Text(s)) => Ok(Some(s)),
        Some(FieldValue::Int(i)) => Ok(Some(i.to_string())),
    }
}

fn put_int<T: TryFrom<i64>>(v: Option<FieldValue>) -> Result<Option<T>, String> {
    match v {
        None => Ok(None),
        Some(FieldValue::Int(i)) => T::try_from(i).map(Some).map_err(|_| format!("{i} is out of range")),
        Some(FieldValue::Text(s)) => Err(format!("{s:?} is not a whole number")),
    }
}

fn put_unit<T: DeserializeOwned>(v: Option<FieldValue>) -> Result<Option<T>, String> {
    put_text(v)?.map(|s| from_unit_name(&s)).transpose()
}

fn put_link(v: Option<FieldValue>) -> Result<Option<Link>, String> {
    put_text(v)?.map(|s| Link::from_id(&s)).transpose()
}

/// Edits a part of the tags that is itself optional (the controller, the NAND, the RAID
/// set): created when a value is set, dropped when nothing is left in it.
fn within<S: Default + PartialEq>(slot: &mut Option<S>, edit: impl FnOnce(&mut S)) {
    let mut s = slot.take().unwrap_or_default();
    edit(&mut s);
    *slot = (s != S::default()).then_some(s);
}

const MODES: &[&str] = &["IDE", "AHCI", "RAID", "NVMe"];
/// The links people have; a form keeps any other [`Link::id`] a result already has.
const LINKS: &[&str] = &[
    "sata-1.5",
    "sata-3",
    "sata-6",
    "pcie-1-x1",
    "pcie-2-x1",
    "pcie-2-x4",
    "pcie-3-x4",
    "pcie-4-x4",
    "pcie-5-x4",
    "usb-0.48",
    "usb-5",
    "usb-10",
    "usb-20",
];
/// Tag fields the server's ingest sets itself (how the drive was identified), whatever a
/// submission says: derived again by every edit.
pub const DERIVED: &[&str] = &["identified_by"];

const LINK_POWER: &[&str] = &[
    "aspm-disabled",
    "aspm-l0s",
    "aspm-l1",
    "aspm-l0s-l1",
    "lpm-max-performance",
    "lpm-medium-power",
    "lpm-med-power-with-dipm",
    "lpm-min-power",
];

/// Every field, in the order of the CSV columns and the platform group.
pub const FIELDS: &[Field] = &[
    Field {
        name: "drive",
        column: "drive_sku",
        label: "Drive (catalogue id)",
        example: "crucial-realssd-c300-64gb",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.drive.sku),
            set: |t, v| {
                t.drive.sku = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "vendor",
        column: "drive_vendor",
        label: "Vendor",
        example: "Crucial",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.drive.vendor),
            set: |t, v| {
                t.drive.vendor = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "model",
        column: "drive_model",
        label: "Model",
        example: "RealSSD C300",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.drive.model),
            set: |t, v| {
                t.drive.model = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "part_number",
        column: "drive_part_number",
        label: "Part number",
        example: "CTFDDAC064MAG-1G1",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.drive.part_number),
            set: |t, v| {
                t.drive.part_number = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "capacity_gb",
        column: "drive_capacity_gb",
        label: "Capacity (GB)",
        example: "64",
        kind: Kind::Int,
        sort: true,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| int(t.drive.capacity_gb),
            set: |t, v| {
                t.drive.capacity_gb = put_int(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "identified_by",
        column: "drive_identified_by",
        label: "Drive identified by",
        example: "given",
        kind: Kind::Text,
        sort: false,
        group: false,
        // Set by the server's ingest from how the drive was found, never typed.
        input: Input::None,
        source: Source::Tag {
            get: |t| unit(&t.drive.identified_by),
            set: |t, v| {
                t.drive.identified_by = put_unit::<DriveMatch>(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "controller",
        column: "controller",
        label: "Controller",
        example: "88SS9174",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| t.controller.as_ref().and_then(|c| text(&c.model)),
            set: |t, v| {
                let model = put_text(v)?;
                within(&mut t.controller, |c: &mut ControllerTag| c.model = model);
                Ok(())
            },
        },
    },
    Field {
        name: "stepping",
        column: "controller_stepping",
        label: "Controller stepping",
        example: "BKK2",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::None,
        source: Source::Tag {
            get: |t| t.controller.as_ref().and_then(|c| text(&c.stepping)),
            set: |t, v| {
                let stepping = put_text(v)?;
                within(&mut t.controller, |c: &mut ControllerTag| c.stepping = stepping);
                Ok(())
            },
        },
    },
    Field {
        name: "nand",
        column: "nand_vendor",
        label: "NAND vendor",
        example: "Micron",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::None,
        source: Source::Tag {
            get: |t| t.nand.as_ref().and_then(|n| text(&n.vendor)),
            set: |t, v| {
                let vendor = put_text(v)?;
                within(&mut t.nand, |n: &mut NandTag| n.vendor = vendor);
                Ok(())
            },
        },
    },
    Field {
        name: "firmware",
        column: "firmware",
        label: "Firmware",
        example: "0006",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.firmware),
            set: |t, v| {
                t.firmware = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "chipset",
        column: "chipset",
        label: "Chipset",
        example: "ICH10R",
        kind: Kind::Text,
        sort: true,
        group: true,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.platform.chipset),
            set: |t, v| {
                t.platform.chipset = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "storage_controller",
        column: "storage_controller",
        label: "Storage controller",
        example: "Intel ICH10R",
        kind: Kind::Text,
        sort: true,
        group: true,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.platform.storage_controller),
            set: |t, v| {
                t.platform.storage_controller = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "driver",
        column: "driver",
        label: "Driver",
        example: "IMSM",
        kind: Kind::Text,
        sort: false,
        group: true,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.platform.driver),
            set: |t, v| {
                t.platform.driver = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "driver_version",
        column: "driver_version",
        label: "Kernel or driver version",
        example: "6.8.0-45-generic",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.platform.driver_version),
            set: |t, v| {
                t.platform.driver_version = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "mode",
        column: "mode",
        label: "Mode",
        example: "AHCI",
        kind: Kind::Text,
        sort: false,
        group: true,
        input: Input::Choice(MODES),
        source: Source::Tag {
            get: |t| unit(&t.platform.mode),
            set: |t, v| {
                t.platform.mode = put_unit::<StorageMode>(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "link",
        column: "link",
        label: "Drive link",
        example: "sata-6",
        kind: Kind::Text,
        sort: false,
        group: true,
        input: Input::Choice(LINKS),
        source: Source::Tag {
            get: |t| link(&t.platform.link),
            set: |t, v| {
                t.platform.link = put_link(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "host_link",
        column: "host_link",
        label: "Card's host link",
        example: "pcie-2-x1",
        kind: Kind::Text,
        sort: false,
        group: true,
        input: Input::None,
        source: Source::Tag {
            get: |t| link(&t.platform.host_link),
            set: |t, v| {
                t.platform.host_link = put_link(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "link_power",
        column: "link_power",
        label: "Link power management",
        example: "aspm-l1",
        kind: Kind::Text,
        sort: true,
        group: true,
        input: Input::Choice(LINK_POWER),
        source: Source::Tag {
            get: |t| unit(&t.platform.link_power),
            set: |t, v| {
                t.platform.link_power = put_unit::<LinkPower>(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "raid_level",
        column: "raid_level",
        label: "RAID level",
        example: "1",
        kind: Kind::Int,
        sort: false,
        group: true,
        input: Input::None,
        source: Source::Tag {
            get: |t| int(t.raid.as_ref().map(|r| r.level)),
            set: |t, v| {
                let level = put_int(v)?.unwrap_or(0);
                within(&mut t.raid, |r: &mut Raid| r.level = level);
                Ok(())
            },
        },
    },
    Field {
        name: "raid_members",
        column: "raid_members",
        label: "RAID members",
        example: "2",
        kind: Kind::Int,
        sort: false,
        group: true,
        input: Input::Text,
        source: Source::Tag {
            get: |t| int(t.raid.as_ref().map(|r| r.members)),
            set: |t, v| {
                let members = put_int(v)?.unwrap_or(0);
                within(&mut t.raid, |r: &mut Raid| r.members = members);
                Ok(())
            },
        },
    },
    Field {
        name: "os",
        column: "os",
        label: "OS",
        example: "Windows 7 SP1 x64",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::Text,
        // The tag, or else what the tool itself reported.
        source: Source::TagOrResult {
            get: |t| text(&t.platform.os),
            set: |t, v| {
                t.platform.os = put_text(v)?;
                Ok(())
            },
            result: |r| text(&r.os),
        },
    },
    Field {
        name: "filesystem",
        column: "filesystem",
        label: "Filesystem",
        example: "NTFS",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::Text,
        source: Source::Tag {
            get: |t| text(&t.platform.filesystem),
            set: |t, v| {
                t.platform.filesystem = put_text(v)?;
                Ok(())
            },
        },
    },
    Field {
        name: "tool",
        column: "tool",
        label: "Tool",
        example: "crystaldiskmark",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::None,
        source: Source::Result(|r| Some(FieldValue::Text(unit_name(&r.tool)))),
    },
    Field {
        name: "tool_version",
        column: "tool_version",
        label: "Tool version",
        example: "3.0.1 x64",
        kind: Kind::Text,
        sort: true,
        group: false,
        input: Input::None,
        source: Source::Result(|r| text(&r.tool_version)),
    },
    Field {
        name: "family",
        column: "family",
        label: "Tool family",
        example: "diskspd",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::None,
        source: Source::Result(|r| Some(FieldValue::Text(unit_name(&r.family())))),
    },
    Field {
        name: "data_pattern",
        column: "data_pattern",
        label: "Data pattern",
        example: "random",
        kind: Kind::Text,
        sort: false,
        group: false,
        input: Input::None,
        source: Source::Result(|r| unit(&r.data_pattern)),
    },
    Field {
        name: "test_size_bytes",
        column: "test_size_bytes",
        label: "Test size (bytes)",
        example: "1073741824",
        kind: Kind::Int,
        sort: true,
        group: false,
        input: Input::None,
        source: Source::Result(|r| {
            r.test_size_bytes.and_then(|s| i64::try_from(s).ok()).map(FieldValue::Int)
        }),
    },
];

/// Old sort names that permalinks still carry: `sort=drive` has always sorted by the
/// model name.
pub const SORT_ALIASES: &[(&str, &str)] = &[("drive", "model")];

/// The sortable field a `sort=` name means (without its `-`).
pub fn sort_field(name: &str) -> Option<&'static Field> {
    let name = SORT_ALIASES.iter().find(|(alias, _)| *alias == name).map_or(name, |(_, to)| to);
    field(name).filter(|f| f.sort)
}

/// A version of the platform group's layout, from its fields: stored data keyed by groups
/// (the compare summary) is rebuilt when it changes.
pub fn group_layout() -> String {
    GROUP.iter().map(|f| f.name).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_columns_are_unique_and_sql_safe() {
        for (i, f) in FIELDS.iter().enumerate() {
            for g in &FIELDS[..i] {
                assert_ne!(f.name, g.name);
                assert_ne!(f.column, g.column);
            }
            for s in [f.name, f.column] {
                assert!(s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{s}");
            }
            assert!(f.parse(f.example).is_ok(), "{}: its example parses", f.name);
        }
        for (alias, to) in SORT_ALIASES {
            assert!(sort_field(alias).is_some_and(|f| f.name == *to));
        }
    }

    #[test]
    fn the_group_is_the_group_fields_in_order() {
        assert!(
            FIELDS.iter().filter(|f| f.group).map(|f| f.name).eq(GROUP.iter().map(|g| g.name)),
            "a group is what the tags say"
        );
        assert_eq!(
            group_layout(),
            "chipset,storage_controller,driver,mode,link,host_link,link_power,raid_level,raid_members"
        );
    }

    /// Every tag field's example is written and read back, alone; writing back what was
    /// read changes nothing; an empty value clears it and leaves no empty part behind.
    #[test]
    fn every_tag_field_writes_and_reads_back() {
        let result = BenchResult::new(crate::model::Tool::Fio);
        for f in FIELDS.iter().filter(|f| f.is_tag()) {
            let mut tags = Tags::default();
            f.set_text(&mut tags, f.example).unwrap_or_else(|e| panic!("{}: {e}", f.name));
            let value = f.value(&tags, &result);
            assert_eq!(value, Some(f.parse(f.example).unwrap()), "{}", f.name);
            // A RAID set always has a level and a member count (members alone mean RAID 0):
            // the one pair that is not independent.
            let implied = |g: &Field| f.name.starts_with("raid_") && g.name.starts_with("raid_");
            for g in FIELDS.iter().filter(|g| g.is_tag() && g.name != f.name && !implied(g)) {
                assert_eq!(g.value(&tags, &result), None, "setting {} set {}", f.name, g.name);
            }
            let before = tags.clone();
            f.set_text(&mut tags, &value.unwrap().to_string()).unwrap();
            assert_eq!(tags, before, "{}", f.name);
            f.set_text(&mut tags, " ").unwrap();
            assert_eq!(tags, Tags::default(), "{} clears", f.name);
        }
    }

    #[test]
    fn choices_are_the_enum_values() {
        for f in FIELDS {
            if let Input::Choice(values) = f.input {
                for v in values {
                    let mut tags = Tags::default();
                    f.set_text(&mut tags, v).unwrap_or_else(|e| panic!("{}: {e}", f.name));
                    assert_eq!(
                        f.value(&tags, &BenchResult::new(crate::model::Tool::Fio)),
                        Some(FieldValue::Text(v.to_string()))
                    );
                }
            }
        }
        let mut tags = Tags::default();
        assert!(field("link_power").unwrap().set_text(&mut tags, "turbo").is_err());
        assert!(field("capacity_gb").unwrap().set_text(&mut tags, "big").is_err());
        assert!(field("raid_members").unwrap().set_text(&mut tags, "300").is_err());
        assert!(field("tool").unwrap().set_text(&mut tags, "fio").is_err());
    }

    #[test]
    fn unit_names_are_the_serde_names() {
        use crate::model::{DataPattern, Tool};
        for mode in [StorageMode::Ide, StorageMode::Ahci, StorageMode::Raid, StorageMode::Nvme] {
            let json = serde_json::to_string(&mode).unwrap();
            assert_eq!(format!("\"{}\"", unit_name(&mode)), json);
            assert_eq!(from_unit_name::<StorageMode>(&unit_name(&mode)), Ok(mode));
        }
        assert_eq!(unit_name(&DataPattern::ZeroFill), "zero-fill");
        assert_eq!(unit_name(&Tool::AsSsd), "as-ssd");
        assert_eq!(unit_name(&LinkPower::AspmL0sL1), "aspm-l0s-l1");
        assert!(from_unit_name::<StorageMode>("ahci").is_err(), "names are exact");
        assert!(std::panic::catch_unwind(|| unit_name(&"text")).is_err(), "only unit variants have names");
    }

    #[test]
    fn links_read_back_from_their_ids() {
        for l in [
            Link::Sata { gbps: 1.5 },
            Link::Sata { gbps: 6.0 },
            Link::Pcie { gen: 4, lanes: 4 },
            Link::Usb { gbps: 0.48 },
        ] {
            assert_eq!(Link::from_id(&l.id()), Ok(l));
        }
        for bad in ["sata", "pcie-4", "pcie-x-x4", "usb-fast", "nvme-4"] {
            assert!(Link::from_id(bad).is_err(), "{bad}");
        }
    }
}
