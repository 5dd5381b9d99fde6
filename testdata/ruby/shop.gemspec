# frozen_string_literal: true

Gem::Specification.new do |s|
  s.name    = "shop"
  s.version = "0.1.0"
  s.summary = "A small shopping cart, the Ruby test repository of knowing."
  s.files   = Dir["lib/**/*.rb"]
end
