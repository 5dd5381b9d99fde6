//! Feature gates: each macro puts a feature's cfg on a group of items.

/// cfg_rt keeps its items when the runtime is enabled.
macro_rules! cfg_rt {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "rt")]
            $item
        )*
    }
}

/// cfg_net keeps its items when networking is enabled.
macro_rules! cfg_net {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "net")]
            $item
        )*
    }
}

/// flags declares a set of bit flags (its argument is not Rust items).
macro_rules! flags {
    ($vis:vis struct $name:ident: $t:ty { $(const $f:ident = $v:expr;)* }) => {
        $vis struct $name($t);
    }
}
