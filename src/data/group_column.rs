//! Groups given beside the data, not as one of its columns (the Python estimator's
//! `sensitive_features`): [`Dataset::with_group_column`] appends them as a categorical column,
//! after every other, for the fairness bounds to read; its features come last, so a tree that
//! does not split on them is a tree over the data without them, feature for feature.

use super::{Column, ColumnKind, Dataset, Schema};

impl Dataset {
    /// A name for a column beside this data's: `wanted`, or `wanted` followed by as many `_` as
    /// it takes for no column to have the name and no feature to start with it and `=` (the
    /// features of a categorical column of that name).
    pub fn free_column_name(&self, wanted: &str) -> String {
        let taken = |name: &str| {
            let prefix = format!("{name}=");
            self.schema.columns.iter().any(|c| c.name == name)
                || self
                    .schema
                    .features
                    .iter()
                    .any(|f| f == name || f.starts_with(&prefix))
        };
        let mut name = wanted.to_string();
        while taken(&name) {
            name.push('_');
        }
        name
    }

    /// The same rows with the categorical column `name` appended after every other column:
    /// `groups[i]` is row `i`'s category (the categories are the distinct groups, sorted).
    /// Its features (one 0/1 feature per group) follow the data's, which keep their indexes.
    /// Fails on a number of groups other than the number of rows, on a name the data has
    /// (see [`Dataset::free_column_name`]) and on an empty group name.
    pub fn with_group_column(&self, name: &str, groups: &[String]) -> crate::Result<Dataset> {
        let bad = |message: String| crate::Error::parameter("groups", message);
        if groups.len() != self.n_rows() {
            return Err(bad(format!(
                "{} groups for {} rows; give one group per row",
                groups.len(),
                self.n_rows()
            )));
        }
        if self.free_column_name(name) != name {
            return Err(bad(format!("the data has a column or feature `{name}`")));
        }
        if groups.iter().any(String::is_empty) {
            return Err(bad("a group's name is empty".to_string()));
        }
        let mut categories = groups.to_vec();
        categories.sort();
        categories.dedup();
        let mut columns = self.schema.columns.clone();
        columns.push(Column {
            name: name.to_string(),
            kind: ColumnKind::Categorical {
                categories: categories.clone(),
            },
        });
        let features = Schema::features_of(&columns);
        if features[..self.n_features().min(features.len())] != self.schema.features[..] {
            return Err(crate::Error::Internal(
                "the group column moved the data's features".into(),
            ));
        }
        let rows = self
            .rows
            .iter()
            .zip(groups)
            .map(|(row, group)| {
                let mut row = row.clone();
                row.extend(categories.iter().map(|c| f64::from(u8::from(c == group))));
                row
            })
            .collect();
        let schema = Schema {
            columns,
            target: self.schema.target.clone(),
            features,
        };
        self.derived(schema, rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Dataset {
        Dataset::from_parts(
            "t",
            vec!["g".to_string(), "g=a".to_string()],
            vec!["n".to_string(), "p".to_string()],
            vec![vec![0.0, 1.0], vec![1.0, 0.0], vec![2.0, 1.0]],
            vec![0, 1, 1],
        )
        .expect("valid data")
        .with_weights(vec![1.0, 2.0, 3.0])
        .expect("valid weights")
    }

    #[test]
    fn the_groups_come_last_one_feature_each() {
        let data = data();
        let name = data.free_column_name("g");
        assert_eq!(name, "g_");
        let groups = ["b", "a", "b"].map(String::from);
        let grouped = data.with_group_column(&name, &groups).expect("appended");
        assert_eq!(
            grouped.schema().features,
            ["g", "g=a", "g_=a", "g_=b"].map(String::from)
        );
        assert_eq!(grouped.rows()[0], vec![0.0, 1.0, 0.0, 1.0]);
        assert_eq!(grouped.rows()[1], vec![1.0, 0.0, 1.0, 0.0]);
        assert_eq!(grouped.weights(), data.weights());
        assert_eq!(grouped.labels(), data.labels());
        assert!(grouped.schema().check().is_ok());
    }

    #[test]
    fn groups_that_do_not_fit_are_refused() {
        let data = data();
        let two = ["a", "b"].map(String::from);
        assert!(data.with_group_column("s", &two).is_err());
        let named = ["a", "b", "a"].map(String::from);
        assert!(data.with_group_column("g", &named).is_err());
        let empty = ["a", "", "a"].map(String::from);
        assert!(data.with_group_column("s", &empty).is_err());
    }
}
