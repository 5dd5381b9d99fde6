// Package langs registers every language knowing parses with package
// extract. Import it for its side effect:
//
//	import _ "github.com/knowing-dev/knowing/extract/langs"
//
// It imports the language packages and nothing else; only cmd/knowing and
// tests import it.
package langs

import (
	_ "github.com/knowing-dev/knowing/extract/cfamily"
	_ "github.com/knowing-dev/knowing/extract/csharp"
	_ "github.com/knowing-dev/knowing/extract/golang"
	_ "github.com/knowing-dev/knowing/extract/java"
	_ "github.com/knowing-dev/knowing/extract/javascript"
	_ "github.com/knowing-dev/knowing/extract/python"
	_ "github.com/knowing-dev/knowing/extract/ruby"
	_ "github.com/knowing-dev/knowing/extract/rust"
)
