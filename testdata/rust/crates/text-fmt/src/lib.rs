//! Text formatting helpers.

/// render formats one catalogue line.
pub fn render(id: &str, price: u32) -> String {
    format!("{}: {}", pad(id), price)
}

/// pad right-aligns s in eight columns.
pub fn pad(s: &str) -> String {
    format!("{:>8}", s)
}

/// read_to_string is not std::fs::read_to_string.
pub fn read_to_string(path: &str) -> String {
    path.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads() {
        assert_eq!(pad("a").len(), 8);
    }
}
