//! Where each model feature comes from: a numeric column, or one category of a categorical
//! column (a 0/1 feature that is 1 when the row has that category).

use crate::data::{Column, ColumnKind, Schema};

/// What one model feature reads from the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureSource<'a> {
    /// The value of a numeric column.
    Numeric { column: &'a str },
    /// 1 when the categorical column `column` holds `category`, 0 otherwise (an unseen
    /// category included).
    Category { column: &'a str, category: &'a str },
}

/// The source of each feature the columns give, in feature order (the order of
/// [`Schema::features_of`]).
pub fn sources_of(columns: &[Column]) -> Vec<FeatureSource<'_>> {
    let mut sources = Vec::new();
    for column in columns {
        match &column.kind {
            ColumnKind::Numeric => sources.push(FeatureSource::Numeric {
                column: &column.name,
            }),
            ColumnKind::Categorical { categories } => {
                sources.extend(categories.iter().map(|category| FeatureSource::Category {
                    column: &column.name,
                    category,
                }))
            }
            ColumnKind::Target | ColumnKind::Weight => {}
        }
    }
    sources
}

impl Schema {
    /// The source of feature `feature`, `None` when there is no such feature.
    pub fn feature_source(&self, feature: usize) -> Option<FeatureSource<'_>> {
        sources_of(&self.columns).get(feature).copied()
    }

    /// The column and category of feature `feature` when it is one category of a categorical
    /// column.
    pub fn category_of(&self, feature: usize) -> Option<(&str, &str)> {
        match self.feature_source(feature) {
            Some(FeatureSource::Category { column, category }) => Some((column, category)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_follow_the_feature_order() {
        let columns = vec![
            Column {
                name: "colour".into(),
                kind: ColumnKind::Categorical {
                    categories: vec!["blue".into(), "red".into()],
                },
            },
            Column {
                name: "y".into(),
                kind: ColumnKind::Target,
            },
            Column {
                name: "size".into(),
                kind: ColumnKind::Numeric,
            },
        ];
        let schema = Schema {
            features: Schema::features_of(&columns),
            columns,
            target: "y".into(),
        };
        assert_eq!(schema.features, ["colour=blue", "colour=red", "size"]);
        assert_eq!(schema.category_of(1), Some(("colour", "red")));
        assert_eq!(schema.category_of(2), None);
        assert_eq!(
            schema.feature_source(2),
            Some(FeatureSource::Numeric { column: "size" })
        );
        assert_eq!(schema.feature_source(3), None);
    }
}
