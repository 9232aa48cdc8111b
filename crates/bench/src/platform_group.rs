//! A result's platform group: the parts of its platform that decide how fast a drive can
//! go, which aggregates pool within (`PlatformGroup`). Its fields are the tag fields
//! marked `group` in `fields::FIELDS`: this module stands on both `model` (the tags)
//! and `fields` (which of them group), so that neither of those needs the other.

use crate::fields::{self, FieldValue};
use crate::model::Tags;
use serde::{Deserialize, Serialize};

/// The parts of a platform that decide how fast a drive can go: the storage controller
/// and chipset, driver, mode, links, link power management and RAID set. Aggregates pool
/// results only within one group, because a C300 on Intel ICH10R, on a Marvell add-in
/// card and in a RAID 0 of two are three different measurements. OS, filesystem and CPU
/// are kept with each result but do not split groups (they shift numbers far less, and
/// splitting on them would leave most groups with one sample).
///
/// Which fields make a group is said once, in [`crate::fields::FIELDS`] (`group: true`):
/// a group holds one value per such field, in that order, and serialises as an object
/// with every one of them (`null` when unknown), e.g. `{"chipset": "ICH10R", ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlatformGroup {
    values: Vec<Option<FieldValue>>,
}

impl Default for PlatformGroup {
    /// Nothing known.
    fn default() -> PlatformGroup {
        PlatformGroup::from_values(fields::GROUP.iter().map(|_| None))
    }
}

impl PlatformGroup {
    /// A group from one value per group field, in [`fields::GROUP`] order.
    pub fn from_values(values: impl IntoIterator<Item = Option<FieldValue>>) -> PlatformGroup {
        let values: Vec<_> = values.into_iter().collect();
        debug_assert_eq!(values.len(), fields::GROUP.len(), "one value per group field");
        PlatformGroup { values }
    }

    /// The group of a result with these tags.
    pub fn of(tags: &Tags) -> PlatformGroup {
        PlatformGroup::from_values(fields::GROUP.iter().map(|f| (f.get)(tags)))
    }

    /// The value of a group field, by its public name.
    pub fn get(&self, name: &str) -> Option<&FieldValue> {
        fields::GROUP.iter().position(|f| f.name == name).and_then(|i| self.values[i].as_ref())
    }

    fn text(&self, name: &str) -> Option<String> {
        self.get(name).map(FieldValue::to_string)
    }

    /// The array a pool of this group measured, `RAID 0 ×2`, when its results come
    /// from several drives striped or mirrored together: a different thing from one
    /// drive, never ranked among single drives. `None` for one drive.
    pub fn array(&self) -> Option<String> {
        match (self.get("raid_level"), self.get("raid_members")) {
            (Some(level), Some(FieldValue::Int(members))) if *members >= 2 => {
                Some(format!("RAID {level} ×{members}"))
            }
            _ => None,
        }
    }

    /// The group with only its array's fields kept (RAID level and members; nothing for
    /// one drive): what stays apart when a drive's pools are merged, since an array is
    /// not the drive.
    pub fn array_only(&self) -> PlatformGroup {
        if self.array().is_none() {
            return PlatformGroup::default();
        }
        PlatformGroup::from_values(
            fields::GROUP
                .iter()
                .zip(&self.values)
                .map(|(f, v)| matches!(f.name, "raid_level" | "raid_members").then(|| v.clone()).flatten()),
        )
    }

    /// A short human label, e.g. `ICH10R · IMSM · RAID · SATA-3` or
    /// `ASUS U3S6 · Marvell · pcie-2-x1 host · RAID 0 ×2`; `unknown platform` when
    /// nothing is known.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        match (&self.text("chipset"), &self.text("storage_controller")) {
            // "Intel ICH10R" on chipset ICH10R says it once; an add-in card names both.
            (Some(c), Some(s)) if !s.contains(c.as_str()) => parts.push(format!("{s} on {c}")),
            (Some(_), Some(s)) => parts.push(s.clone()),
            (Some(c), _) => parts.push(c.clone()),
            (None, Some(s)) => parts.push(s.clone()),
            (None, None) => {}
        }
        parts.extend(self.text("driver"));
        parts.extend(self.text("mode"));
        parts.extend(self.text("link"));
        parts.extend(self.text("host_link").map(|l| format!("{l} host")));
        parts.extend(self.text("link_power"));
        if let (Some(level), Some(members)) = (self.text("raid_level"), self.text("raid_members")) {
            parts.push(format!("RAID {level} ×{members}"));
        }
        if parts.is_empty() {
            "unknown platform".into()
        } else {
            parts.join(" · ")
        }
    }
}

impl Serialize for PlatformGroup {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (f, v) in fields::GROUP.iter().zip(&self.values) {
            match v {
                None => map.serialize_entry(f.name, &None::<()>)?,
                Some(FieldValue::Text(s)) => map.serialize_entry(f.name, s)?,
                Some(FieldValue::Int(i)) => map.serialize_entry(f.name, i)?,
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for PlatformGroup {
    /// Every group field may be missing (unknown); other keys are ignored, as in every
    /// other tag object. (A visitor of its own, not `serde_json::Value`: the browser
    /// decodes groups too, and Value's code would come with it.)
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PlatformGroup, D::Error> {
        struct GroupVisitor;
        impl<'de> serde::de::Visitor<'de> for GroupVisitor {
            type Value = PlatformGroup;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a platform group object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<PlatformGroup, A::Error> {
                let mut values: Vec<Option<FieldValue>> = fields::GROUP.iter().map(|_| None).collect();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(i) = fields::GROUP.iter().position(|f| f.name == key) else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        continue;
                    };
                    // Each value as its field's type: the decoders of `Option<String>` and
                    // `Option<i64>` are there anyway, where a decoder of "any value" is not.
                    values[i] = match fields::GROUP[i].kind {
                        fields::Kind::Text => map.next_value::<Option<String>>()?.map(FieldValue::Text),
                        fields::Kind::Int => map.next_value::<Option<i64>>()?.map(FieldValue::Int),
                    };
                }
                Ok(PlatformGroup { values })
            }
        }
        deserializer.deserialize_map(GroupVisitor)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for PlatformGroup {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        let mut object = ObjectBuilder::new().description(Some(
            "The platform a result was measured on, as far as it decides the numbers: results pool only within one \
             group. Every group field is present, null when unknown.",
        ));
        for f in fields::FIELDS.iter().filter(|f| f.group) {
            let ty = match f.kind {
                fields::Kind::Text => Type::String,
                fields::Kind::Int => Type::Integer,
            };
            let field = ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([ty, Type::Null]))
                .description(Some(f.label))
                .examples([serde_json::Value::from(f.example)]);
            object = object.property(f.name, field).required(f.name);
        }
        object.into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for PlatformGroup {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Link, LinkPower, Raid, StorageMode};

    #[test]
    fn platform_groups_split_on_controller_and_raid_but_not_os() {
        let mut tags = Tags::default();
        tags.platform.chipset = Some("ICH10R".into());
        tags.platform.storage_controller = Some("Intel ICH10R".into());
        tags.platform.mode = Some(StorageMode::Ahci);
        tags.platform.link = Some(Link::Sata { gbps: 3.0 });
        tags.platform.os = Some("Windows 7".into());
        let single = PlatformGroup::of(&tags);
        assert_eq!(single.label(), "Intel ICH10R · AHCI · sata-3");
        tags.platform.storage_controller = Some("ASUS U3S6".into());
        assert_eq!(PlatformGroup::of(&tags).label(), "ASUS U3S6 on ICH10R · AHCI · sata-3");
        tags.platform.storage_controller = Some("Intel ICH10R".into());

        tags.platform.os = Some("Windows 10".into());
        assert_eq!(PlatformGroup::of(&tags), single, "the OS does not split a group");

        tags.raid = Some(Raid { level: 0, members: 2, stripe_bytes: Some(131072) });
        let raid = PlatformGroup::of(&tags);
        assert_ne!(raid, single);
        assert!(raid.label().ends_with("RAID 0 ×2"), "{}", raid.label());
        assert_eq!(raid.array().as_deref(), Some("RAID 0 ×2"));
        assert_eq!(single.array(), None);
        assert_eq!(PlatformGroup::default().label(), "unknown platform");
    }

    #[test]
    fn platform_groups_are_objects_of_their_fields() {
        let mut tags = Tags::default();
        tags.platform.chipset = Some("SB850".into());
        tags.platform.link_power = Some(LinkPower::AspmL1);
        tags.raid = Some(Raid { level: 0, members: 2, stripe_bytes: None });
        let group = PlatformGroup::of(&tags);
        let json = serde_json::to_value(&group).unwrap();
        assert_eq!(json["chipset"], "SB850");
        assert_eq!(json["link_power"], "aspm-l1");
        assert_eq!(json["raid_members"], 2);
        assert!(
            json["driver"].is_null() && json.as_object().unwrap().contains_key("driver"),
            "every field, null when unknown"
        );
        assert_eq!(serde_json::from_value::<PlatformGroup>(json).unwrap(), group);
        // Missing fields are unknown, other keys ignored; a number where text belongs is refused.
        let read: PlatformGroup = serde_json::from_str(r#"{"chipset": "SB850", "colour": [1]}"#).unwrap();
        assert_eq!(read.get("chipset"), Some(&FieldValue::Text("SB850".into())));
        assert_eq!(read.get("raid_members"), None);
        assert!(serde_json::from_str::<PlatformGroup>(r#"{"chipset": 850}"#).is_err());
        assert!(serde_json::from_str::<PlatformGroup>(r#"{"raid_level": "zero"}"#).is_err());
    }
}
