// soc_gpio.sv -- WIDTH general-purpose outputs and inputs. Inputs pass through
// a two-flop synchroniser; a third stage gives sticky rising-edge flags, and
// irq is raised while any flag is set.
`include "soc_compat.svh"

module soc_gpio
  import soc_pkg::*;
#(
    parameter int WIDTH = 8
) (
    input  `SOC_VAR logic             clk,
    input  `SOC_VAR logic             rst_n,
    input  `SOC_VAR bus_req_t         req,
    output bus_rsp_t                  rsp,
    input  `SOC_VAR logic [WIDTH-1:0] gpio_i,
    output logic      [WIDTH-1:0]     gpio_o,
    output logic                      irq
);
  // sync_q[0], sync_q[1]: synchroniser; sync_q[2]: previous value for edges
  logic [2:0][WIDTH-1:0] sync_q;
  logic [WIDTH-1:0]      out_q;
  logic [WIDTH-1:0]      rise_q;
  logic                  rvalid_q;
  word_t                 rdata_q;

  logic             wr;
  logic [WIDTH-1:0] wbits;     // written bits, byte enables applied
  logic [WIDTH-1:0] rise_now;
  word_t            rval;

  assign wr       = req.valid & req.we;
  assign wbits    = WIDTH'(apply_be('0, req.wdata, req.be));
  assign rise_now = sync_q[1] & ~sync_q[2];

  always_comb begin
    unique case (req.addr[4:2])
      GPIO_OUT:  rval = 32'(out_q);
      GPIO_IN:   rval = 32'(sync_q[1]);
      GPIO_RISE: rval = 32'(rise_q);
      default:   rval = '0;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      sync_q <= '0;
      out_q  <= '0;
      rise_q <= '0;
    end else begin
      sync_q <= {sync_q[1:0], gpio_i};

      if (wr) begin
        unique case (req.addr[4:2])
          GPIO_OUT: out_q <= WIDTH'(apply_be(32'(out_q), req.wdata, req.be));
          GPIO_SET: out_q <= out_q | wbits;
          GPIO_CLR: out_q <= out_q & ~wbits;
          GPIO_TGL: out_q <= out_q ^ wbits;
          default:  ;
        endcase
      end

      if (wr && req.addr[4:2] == GPIO_RISE)
        rise_q <= (rise_q & ~wbits) | rise_now;
      else
        rise_q <= rise_q | rise_now;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
    end else begin
      rvalid_q <= req.valid;
      if (req.valid && !req.we)
        rdata_q <= rval;
    end
  end

  always_comb begin
    rsp        = '0;
    rsp.ready  = 1'b1;
    rsp.rvalid = rvalid_q;
    rsp.rdata  = rdata_q;
  end

  assign gpio_o = out_q;
  assign irq    = |rise_q;

  wire unused_ok = &{1'b0, req.addr[XLEN-1:5], req.addr[1:0]};

endmodule
