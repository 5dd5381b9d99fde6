# frozen_string_literal: true

require "json"
require "shop/base"
require "shop/cart"

# Shop is a tiny store: carts of items, priced with discounts.
module Shop
  VERSION = "0.1.0"

  class << self
    # The shop-wide audit trail.
    def audit
      @audit ||= Audit.new
    end
  end

  # Audit collects messages.
  class Audit
    def record(message)
      messages << message
    end

    def messages
      @messages ||= []
    end
  end

  # Report renders the sales of a day.
  class Report
    def initialize
      @carts = []
    end

    def generate
      @carts.map(&:to_h)
    end

    def size
      @carts.length
    end

    # What one cart brings in.
    #
    # @param c [Shop::Cart] a cart at checkout
    # @return [Integer]
    def summarize(c)
      c.checkout
    end

    # Report on a cart the customer left: parameters are typed by name.
    def abandoned(cart)
      cart.total_price
    end
  end
end
