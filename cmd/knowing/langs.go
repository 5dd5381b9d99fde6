package main

// The languages knowing parses register themselves with extract.
import (
	_ "github.com/knowing-dev/knowing/extract/csharp"
	_ "github.com/knowing-dev/knowing/extract/java"
	_ "github.com/knowing-dev/knowing/extract/javascript"
	_ "github.com/knowing-dev/knowing/extract/python"
	_ "github.com/knowing-dev/knowing/extract/ruby"
	_ "github.com/knowing-dev/knowing/extract/rust"
)
