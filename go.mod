module github.com/knowing-dev/knowing

go 1.25.0

require (
	github.com/RoaringBitmap/roaring/v2 v2.4.5
	github.com/blevesearch/vellum v1.1.0
	github.com/edsrzf/mmap-go v1.2.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/klauspost/compress v1.18.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-c-sharp v0.23.1
	github.com/tree-sitter/tree-sitter-go v0.25.0
	github.com/tree-sitter/tree-sitter-java v0.23.5
	github.com/tree-sitter/tree-sitter-javascript v0.25.0
	github.com/tree-sitter/tree-sitter-python v0.25.0
	github.com/tree-sitter/tree-sitter-ruby v0.23.1
	github.com/tree-sitter/tree-sitter-rust v0.24.0
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/bits-and-blooms/bitset v1.12.0 // indirect
	github.com/blevesearch/mmap-go v1.0.4 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/tree-sitter/tree-sitter-c v0.24.1 // indirect
	github.com/tree-sitter/tree-sitter-cpp v0.23.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
